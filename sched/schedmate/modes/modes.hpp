#pragma once
// The `mlsys schedmate` modes and what they share.
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/command.hpp"
#include "core/runtime/run_context.hpp"
#include "sched/schedmate/advisor/advisor.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/failure/failure_types.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "sched/schedmate/options.hpp"

namespace mlsys::schedmate {

// Each mode is one file here that registers itself with add_command_mode("schedmate", ...).

// ---- shared helpers ----
std::unique_ptr<Analyzer> make_analyzer(const RunContext& ctx, const SchedmateOptions& o);
// The analyzer's options: schedmate.openai.*, schedmate.limits.max_json_depth (the same limit the
// job reader applies) and, when openai.audit is set, `audit_path`.
AnalyzerOptions analyzer_options(const SchedmateOptions& o, const std::string& audit_path);
// Jobs from schedmate.jobs, or generated ones; facts filled by the analyzer. The files read are
// recorded in summary.json ("inputs": jobs, throughputs).
std::vector<AdvisedJob> input_jobs(RunContext& ctx, const SchedmateOptions& o, Analyzer& analyzer);
// Log files named by schedmate.logs (folders expand to *.log / *.txt, sorted).
std::vector<std::string> input_log_files(const SchedmateOptions& o);
// A log's lines through the input limits (sched/schedmate/io/bounded_input.hpp), curator
// annotations dropped unless schedmate.annotations is read; `stats` (optional) counts cut lines
// and dropped annotations.
struct LogReadStats {
  int64_t files = 0, cut_lines = 0, annotations = 0;
  Json to_json() const;
};
std::vector<std::string> read_log_lines(const std::string& path, const SchedmateOptions& o, LogReadStats* stats = nullptr);

// Advisor over jobs in the online protocol; writes predictions.{jsonl,csv} and hints.csv.
struct AdviseOutcome {
  OnlineResult result;
  double within10 = 0, within50 = 0, helios_within10 = 0, helios_within50 = 0;
  size_t with_truth = 0;
};
AdviseOutcome advise_jobs(RunContext& ctx, const std::vector<AdvisedJob>& jobs,
                          const std::map<std::string, FailureAction>& failure_actions, const SchedmateOptions& o);

// The analyzer's counts in summary.json ("analyzer"), and one warning line on the console when any
// answer fell back to the embedded analyzer.
void report_analyzer(RunContext& ctx, const Analyzer& analyzer);

// 0.123 (three decimals) for summary lines.
std::string fixed3(double v);

// The hints file (sched/workload/hints.hpp) of the predictions, with the failure action of each
// job that has one.
Table hints_table(const std::vector<Prediction>& preds, const std::map<std::string, FailureAction>& failure_actions);

}  // namespace mlsys::schedmate
