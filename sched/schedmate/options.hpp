#pragma once
// The `schedmate:` config section.
#include <string>
#include <vector>

#include "core/config/schema.hpp"

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
  // Input limits.
  int64_t max_log_bytes = int64_t{256} << 20;
  int64_t max_jobs_bytes = int64_t{256} << 20;
  int64_t max_script_bytes = int64_t{1} << 20;
  int64_t max_line_bytes = int64_t{64} << 10;
  int max_json_depth = 32;
  // Tracker.
  bool follow = false;
  double poll_interval_s = 0.2;
  double idle_timeout_s = 30;
  double max_follow_s = 3600;
  double stall_factor = 2.5;
  double total_steps = 0;             // run length when the log never states it (0 = unknown)
  int series_every = 1;               // keep every n-th progress point in progress.csv
  // Advisor.
  int k = 5;
  double min_similarity = 0.55;
  // Generated inputs (demo, genlogs, evaluate).
  int gen_jobs = 300;
  int gen_logs_per_case = 2;          // logs per (format, failure category)
  int64_t gen_steps = 20000;
  std::string loghub;                 // loghub *_structured.csv for template-mining accuracy ("" = skip)
  // evaluate.
  std::string eval_group_by = "vc";   // vc | id_prefix (MLPerf: the round)
  bool eval_baselines = true;         // GBDT and previous-run beside Helios-style
  bool eval_unseen_types = false;     // the unseen-model protocol, per job type
  std::string eval_labelled_logs;     // folder of real logs + labels.csv ("" = skip)
  std::string eval_mlperf_logs;       // folder of MLPerf result logs ("" = skip)
  std::string eval_mlperf_runs;       // their runs.csv (status = ground truth)
  // openai analyzer.
  std::string openai_url = "http://127.0.0.1:8080/v1/chat/completions";
  std::string openai_model = "local";
  std::string openai_api_key_env;
  double openai_timeout_s = 30;
  int openai_retries = 2;
  std::string openai_cache_dir;
  int openai_max_calls_per_job = 3;
  int openai_max_calls = 200;          // per run; then the embedded analyzer answers
  double openai_max_total_s = 120;     // LLM time per run; then the embedded analyzer answers
  std::string openai_proxy;            // "" = the environment's https_proxy / http_proxy / no_proxy
  std::string openai_ca_file;          // "" = the system's CA certificates
  std::string openai_response_format = "json_schema";  // json_schema | json_object | none
  bool openai_audit = false;           // requests and replies to llm_audit.jsonl (key redacted)
};

const config::Section<SchedmateOptions>& schedmate_section();

}  // namespace mlsys::schedmate
