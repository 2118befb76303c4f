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
  std::string gpu_type = "v100";
  std::string throughputs;            // Gavel throughputs CSV ("" = $MLSYS_DATA_DIR/jobs/...)
  std::string log;                    // one log file or folder (the --log flag)
  std::vector<std::string> logs;      // more log files or folders (none = generated logs)
  bool strip_comments = false;        // drop lines starting with "# " (curator annotations)
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
  // openai analyzer.
  std::string openai_url = "http://127.0.0.1:8080/v1/chat/completions";
  std::string openai_model = "local";
  std::string openai_api_key_env;
  double openai_timeout_s = 30;
  int openai_retries = 2;
  std::string openai_cache_dir;
  int openai_max_calls_per_job = 3;
};

const config::Section<SchedmateOptions>& schedmate_section();

}  // namespace mlsys::schedmate
