#pragma once
// The `mlsys schedmate` modes and what they share.
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/run_context.hpp"
#include "sched/schedmate/advisor/advisor.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/failure/failure_types.hpp"
#include "sched/schedmate/options.hpp"

namespace mlsys::schedmate {

void run_demo(RunContext& ctx);
void run_advise(RunContext& ctx);
void run_track(RunContext& ctx);
void run_diagnose(RunContext& ctx);
void run_evaluate(RunContext& ctx);
void run_genlogs(RunContext& ctx);

// ---- shared helpers ----
std::unique_ptr<Analyzer> make_analyzer(const SchedmateOptions& o);
AdvisorOptions advisor_options(const SchedmateOptions& o);
// Jobs from schedmate.jobs, or generated ones; facts filled by the analyzer.
std::vector<AdvisedJob> input_jobs(const SchedmateOptions& o, uint64_t seed, Analyzer& analyzer);
// Log files named by schedmate.logs (folders expand to *.log / *.txt, sorted).
std::vector<std::string> input_log_files(const SchedmateOptions& o);
std::vector<std::string> read_log_lines(const std::string& path, bool strip_comments);

// Advisor over jobs in the online protocol; writes predictions.{jsonl,csv} and hints.csv.
struct AdviseOutcome {
  OnlineResult result;
  double within10 = 0, within50 = 0, helios_within10 = 0, helios_within50 = 0;
  size_t with_truth = 0;
};
AdviseOutcome advise_jobs(RunContext& ctx, const std::vector<AdvisedJob>& jobs,
                          const std::map<std::string, FailureAction>& failure_actions, const SchedmateOptions& o);

// 0.123 (three decimals) for summary lines.
std::string fixed3(double v);

// The hints file (sched/workload/hints.hpp) of the predictions, with the failure action of each
// job that has one.
Table hints_table(const std::vector<Prediction>& preds, const std::map<std::string, FailureAction>& failure_actions);

}  // namespace mlsys::schedmate
