#pragma once
// The `schedmate:` config section.
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "sched/schedmate/advisor/advisor.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/io/bounded_input.hpp"

namespace mlsys::schedmate {

struct SchedmateOptions {
  std::string mode = "demo";
  std::string analyzer = "embedded";
  // Inputs.
  std::string jobs;                   // trace or JSONL of jobs ("" = generated jobs)
  std::string jobs_format = "auto";   // jsonl or a `simulate` trace reader name
  std::vector<std::string> exclude_ids;  // job ids left out of `jobs` (as trace.exclude_ids of simulate)
  std::string gpu_type = "v100";
  std::string throughputs;            // Gavel throughputs CSV (needed for Gavel traces; "" = none)
  std::string log;                    // one log file or folder (the --log flag)
  std::vector<std::string> logs;      // more log files or folders (none = generated logs)
  std::string annotations = "skip";   // skip | read: curator lines "# LABEL: ..." in sample logs
  std::string script_dir;             // folder "@file" scripts must be in ("" = the jobs file's folder)
  // Input limits (limits.*, declared beside the readers: io/bounded_input.hpp).
  InputLimits limits;
  // Tracker.
  bool follow = false;
  double poll_interval_s = 0.2;
  double idle_timeout_s = 30;
  double max_follow_s = 3600;
  double follow_wait_s = 0;  // --follow: how long a log that does not exist yet is waited for (0: it must exist)
  double stall_factor = 2.5;
  double total_steps = 0;             // run length when the log never states it (0 = unknown)
  int series_every = 1;               // keep every n-th progress point in progress.csv
  // Advisor (k, min_similarity: advisor/advisor.hpp).
  AdvisorOptions advisor;
  // Generated inputs (demo, genlogs, evaluate).
  int gen_jobs = 300;
  int gen_logs_per_case = 2;          // logs per (format, failure category)
  int64_t gen_steps = 20000;
  std::string loghub;                 // loghub *_structured.csv for template-mining accuracy ("" = skip)
  // evaluate.
  std::string eval_group_by = "vc";   // vc | id_prefix (MLPerf: the round)
  std::vector<std::string> eval_report_groups;  // groups scored and written (none = all); all are predicted
  bool eval_baselines = true;         // GBDT and previous-run beside Helios-style
  bool eval_unseen_types = false;     // the unseen-model protocol, per job type
  std::string eval_labelled_logs;     // folder of real logs + labels.csv ("" = skip)
  std::string eval_mlperf_logs;       // folder of MLPerf result logs ("" = skip)
  std::string eval_mlperf_runs;       // their runs.csv (status = ground truth)
  // openai analyzer (openai.*: analyzer/analyzer.hpp).
  AnalyzerOptions openai;
};

const config::Section<SchedmateOptions>& schedmate_section();

}  // namespace mlsys::schedmate
