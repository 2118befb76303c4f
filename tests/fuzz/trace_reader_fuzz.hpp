#pragma once
// The body every trace reader's fuzz target shares (tests/fuzz/fuzz_trace_<format>.cpp, one per
// reader): the input bytes become a trace file that the one named reader reads, strictly and then
// leniently. Bad input must end in mlsys::Error (InputError, ConfigError: what the user is shown)
// or in bad rows counted; anything else (another exception, a crash, a sanitizer report) is a
// finding. Every job a read keeps must hold values in range (trace_reader.hpp's ReadContext::emit
// checks), which is checked again here.
//
// A target includes its reader's .cpp itself: the registration is a static initializer, which a
// static library would drop (nothing else refers to it), so the target's .sources list the
// workload's sources without readers/.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/util/error.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/fuzz/fuzz_file.hpp"

namespace mlsys::fuzz {

// Gavel readers turn steps into seconds through a throughput table: a small fixed one, so the
// fuzzer reaches the rows rather than the missing-table error.
inline std::string throughput_table() {
  static const std::string path = [] {
    const std::string t =
        "gpu_type,job_type,scale_factor,isolated_steps_per_sec\n"
        "v100,ResNet-18 (batch size 16),1,10\n"
        "v100,ResNet-18 (batch size 16),2,16\n"
        "v100,LM (batch size 5),1,3\n"
        "v100,CycleGAN,1,4\n"
        "v100,Transformer (batch size 128),1,0.001\n";  // slow: durations near the horizon
    return input_file("throughputs.csv", reinterpret_cast<const uint8_t*>(t.data()), t.size());
  }();
  return path;
}

inline void check_job(const workload::JobSpec& j, double horizon_s) {
  const bool ok = j.num_gpus >= 0 && j.num_gpus <= workload::kMaxGpus && j.gpu_milli >= 0 && j.gpu_milli <= 1000 &&
                  std::isfinite(j.submit_time) && std::isfinite(j.duration) && j.submit_time >= 0 && j.duration >= 0 &&
                  j.submit_time <= horizon_s && j.duration <= horizon_s;
  if (!ok) std::abort();
}

// Reads `data` as the file `file_name` (the name some readers detect or pair by) with `format`.
inline int fuzz_trace_reader(const char* format, const char* file_name, const uint8_t* data, size_t size) {
  const std::string path = input_file(file_name, data, size);
  workload::TraceOptions o;
  o.path = path;
  o.format = format;
  o.throughputs = throughput_table();
  o.time_origin = "";
  for (bool lenient : {false, true}) {
    o.lenient = lenient;
    try {
      workload::TraceLoad t = workload::read_trace(o);
      for (const auto& j : t.jobs) check_job(j, o.horizon_s);
    } catch (const Error&) {
    }
  }
  // Format detection reads the first line: it must answer, never throw something else.
  try {
    (void)workload::detect_trace_format(path);
  } catch (const Error&) {
  }
  std::remove(path.c_str());
  return 0;
}

}  // namespace mlsys::fuzz
