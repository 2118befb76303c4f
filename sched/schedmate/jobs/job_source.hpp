#pragma once
// Where the advisor's jobs come from: any trace `mlsys simulate` reads (through the workload
// library's trace readers, so ids and durations match the simulator's), or a JSONL file of job specs:
//   {"id": "j1", "user": "u", "name": "bert", "command": "...", "script": "...", "num_gpus": 8,
//    "submit_time": 0, "duration": 3600, "total_steps": 0}
// (`script` may be the text or "@path"; `duration` is only used for finished jobs / evaluation.)
#include <string>
#include <vector>

#include "sched/schedmate/advisor/advisor.hpp"

namespace mlsys::schedmate {

struct JobSourceOptions {
  std::string path;
  std::string format = "auto";   // "jsonl" or a trace reader name (sched/workload/traces); auto: .jsonl -> jsonl
  std::string gpu_type = "v100";
  std::string throughputs;       // Gavel throughputs CSV ("" = the reader's default)
  bool lenient = false;
};

// Jobs sorted by submit time (stable).
std::vector<AdvisedJob> load_jobs(const JobSourceOptions& opt);
std::vector<AdvisedJob> parse_jobs_jsonl(const std::string& text, const std::string& name);
std::string jobs_to_jsonl(const std::vector<AdvisedJob>& jobs);

}  // namespace mlsys::schedmate
