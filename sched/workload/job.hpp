#pragma once
// One job as every trace reader produces it and the engine consumes it. Times are seconds from the
// trace's origin; durations are the job's run time on its requested GPUs (without queueing).
#include <cstdint>
#include <string>
#include <vector>

namespace mlsys::workload {

enum class JobState : uint8_t { Completed, Failed, Killed, Unknown };

struct JobSpec {
  int64_t index = 0;       // dense 0..N-1 in submit order after loading (stable, used for arrays)
  std::string id;          // trace's own job id
  std::string user;
  std::string vc;          // virtual cluster / tenant ("" = default pool)
  std::string name;        // job name or type (e.g. "ResNet-18"), used by history-based estimators
  std::string command;     // full command line when the trace has one
  double submit_time = 0;  // seconds
  double duration = 0;     // seconds of run time
  int num_gpus = 0;        // GPUs requested (0 = CPU-only job)
  int gpu_milli = 1000;    // per-GPU share in thousandths for fractional GPUs (openb); 1000 = whole
  int64_t cpu_milli = 0;   // CPU demand in thousandths of a core (0 = unconstrained)
  int64_t memory_mib = 0;  // host memory demand (0 = unconstrained)
  std::string gpu_type;    // requested GPU model ("" = any)
  JobState state = JobState::Completed;
  // Optional workload facts some traces carry (Gavel/Tiresias): total steps/iterations.
  double total_steps = 0;
};

const char* to_string(JobState s);

}  // namespace mlsys::workload
