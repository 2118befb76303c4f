#pragma once
// Where the advisor's jobs come from: any trace `mlsys simulate` reads (through the workload
// library's trace readers, so ids and durations match the simulator's), or a JSONL file of job specs:
//   {"id": "j1", "user": "u", "name": "bert", "command": "...", "script": "...", "num_gpus": 8,
//    "submit_time": 0, "duration": 3600, "total_steps": 0}
// (`script` may be the text or "@path" relative to the file, which must stay inside
// schedmate.script_dir, default the file's folder, and is never a device or /proc file; `duration`
// is only used for finished jobs / evaluation.)
#include <string>
#include <vector>

#include "sched/schedmate/advisor/advisor.hpp"
#include "sched/schedmate/io/bounded_input.hpp"

namespace mlsys::schedmate {

struct JobSourceOptions {
  std::string path;
  std::string format = "auto";   // "jsonl" or a trace reader name (sched/workload/traces); auto: .jsonl -> jsonl
  std::string gpu_type = "v100";
  std::string throughputs;       // Gavel throughputs CSV; a Gavel trace without one is a config error
  bool lenient = false;
  std::vector<std::string> exclude_ids;  // jobs left out; each must match a job, else InputError
  InputLimits limits;
  std::string script_dir;        // "@file" scripts must be inside ("" = the JSONL file's folder)
};

// Jobs sorted by submit time (stable).
std::vector<AdvisedJob> load_jobs(const JobSourceOptions& opt);
// `script_dir`: the folder "@file" scripts must be in ("" = the folder of `name`).
std::vector<AdvisedJob> parse_jobs_jsonl(const std::string& text, const std::string& name, const InputLimits& limits = {},
                                         const std::string& script_dir = "");
std::string jobs_to_jsonl(const std::vector<AdvisedJob>& jobs);

}  // namespace mlsys::schedmate
