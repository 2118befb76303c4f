#pragma once
// What a policy may know about a job: demands, ids and the duration *estimate* the configured
// estimator produced. The true duration stays inside the engine, so a policy cannot cheat by
// accident (the `oracle` estimator hands it over on purpose).
#include <cstdint>

namespace mlsys::sched {

using JobId = int32_t;  // dense 0..N-1 in submit order

struct JobInfo {
  JobId id = 0;
  int32_t vc = 0;         // dense VC index (0 when the cluster has no VCs)
  int32_t user = 0;       // dense user index
  int32_t num_gpus = 0;   // whole GPUs, or 1 for a fractional job
  int32_t gpu_milli = 1000;  // share of each GPU in thousandths (1000 = whole GPU)
  int32_t gpu_type = -1;  // required GPU model index into ClusterState::gpu_types(); -1 = any
  int64_t cpu_milli = 0;  // 0 = unconstrained
  int64_t memory_mib = 0;  // 0 = unconstrained
  double submit = 0;      // seconds
  double estimate = 0;    // estimated run time in seconds (from the estimator)
};

enum class JobStatus : uint8_t { NotSubmitted, Pending, Running, Finished };

}  // namespace mlsys::sched
