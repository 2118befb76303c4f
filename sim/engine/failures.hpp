#pragma once
// The failure model of a simulation (`sim.retry.*`): which jobs fail (their trace state), what a
// retry runs into (the cause: a `causes_file`, else `default_cause`), how long a successful retry
// runs, and what the scheduler does after a failed attempt: nothing (`none`: the job ends at its
// trace time, as the trace says), resubmit every failure (`all`), or act on SchedMate's
// `failure_action` column of `sim.hints_file` (`hints`).
#include <string>
#include <vector>

#include "sched/workload/job.hpp"
#include "sim/engine/engine.hpp"
#include "sim/engine/retry_options.hpp"

namespace mlsys::sim {

FailureCause parse_failure_cause(const std::string& name);  // throws ConfigError listing the names
std::vector<std::string> failure_cause_names();

// What failures cost in one run (from the per-job records).
struct FailureMetrics {
  int64_t failed_jobs = 0;        // jobs with at least one failed attempt
  int64_t failed_attempts = 0, retries = 0;
  int64_t recovered = 0;          // failed, then a retry succeeded
  int64_t abandoned = 0;          // ended failed: no retry, do_not_retry, or retries exhausted
  int64_t not_retried = 0;        // ... of which by do_not_retry
  int64_t retries_exhausted = 0;  // ... of which after max_retries
  double wasted_gpu_hours = 0;    // GPU-time held by failed attempts
};
FailureMetrics failure_metrics(const std::vector<JobRecord>& jobs);

// Fills every job's EngineJob::failure and the engine's retry options. `all` is parallel to `jobs`.
void apply_failure_model(const std::vector<workload::JobSpec>& jobs, const RetryOptions& o, const std::string& hints_file,
                         std::vector<EngineJob>& all, EngineOptions& eopt);

}  // namespace mlsys::sim
