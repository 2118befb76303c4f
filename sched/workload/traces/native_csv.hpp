#pragma once
// The native mlsys trace CSV (docs/traces.md): one header line, then one job per row.
//   id,submit_time,duration,num_gpus,gpu_milli,cpu_milli,memory_mib,user,vc,name,state,gpu_type,total_steps,command
// Required: submit_time, duration, num_gpus. Columns may come in any order; unknown ones are ignored.
#include <string>
#include <vector>

#include "sched/workload/job.hpp"

namespace mlsys::workload {

const std::vector<std::string>& native_csv_columns();
// Appends the header line.
void append_native_header(std::string& out);
// Appends one job as a row (fields quoted when needed, line breaks in text replaced by spaces;
// numbers in their shortest exact form, so a round trip is lossless).
void append_native_row(std::string& out, const JobSpec& job);
// The whole trace as native CSV, written atomically.
void write_native_csv(const std::string& path, const std::vector<JobSpec>& jobs);

}  // namespace mlsys::workload
