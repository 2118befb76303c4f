#pragma once
// The discrete-event engine. It owns the clock (core EventQueue), the cluster's free resources
// and every job's lifecycle (submit, queue, start, preempt with checkpoint penalty, resume,
// migrate, finish), and knows nothing of policies: it calls the configured policy through
// sched::SchedulerContext and validates each decision (capacity never exceeded, no GPU given
// twice, quotas kept, each job finished exactly once), throwing an Error that names the policy.
//
// Failures and retries: a job whose attempt fails (its trace state is failed) ends at its trace
// duration. With max_retries > 0 and an action other than do_not_retry, the engine resubmits it
// retry_delay seconds later: the policy sees on_finish (the attempt left) then on_submit (the job
// arrives again, same id, progress lost); whether the retry fails again depends on the job's
// FailureCause (see sim/engine/failures.hpp). Congestion (congestion_per_job > 0, with slowdown):
// each other multi-node job on the busiest rack a multi-node job spans adds that factor to its
// slowdown, re-timed whenever such a job starts or stops.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sched/api/cluster_state.hpp"
#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"
#include "sched/workload/failure_action.hpp"
#include "sim/engine/engine_options.hpp"

namespace mlsys::sim {

// What actually goes wrong in a failed job (the simulator's ground truth): a retry succeeds when
// the cause is transient, when it avoids the node the failed attempt ran on first (Node), or when
// it gets more memory (Memory); a Persistent failure (a bug, a bad config) recurs on every attempt.
enum class FailureCause : uint8_t { Transient, Node, Memory, Persistent };
// How a job ended.
enum class JobOutcome : uint8_t { Completed, Recovered, Failed, NotRetried, RetriesExhausted };
const char* to_string(FailureCause c);
const char* to_string(JobOutcome o);

struct JobFailure {
  bool fails = false;               // the first attempt fails after `duration` (trace: failed)
  FailureCause cause = FailureCause::Transient;
  workload::FailureAction action = workload::FailureAction::None;  // after a failed attempt (None: resubmit)
  double retry_duration = -1;       // run time of a retry that succeeds (< 0: the job's duration)
};

struct EngineJob {
  sched::JobInfo info;
  double duration = 0;  // true run time (of a failing attempt: until it fails)
  JobFailure failure;
};

struct JobRecord {
  double first_start = -1, end = -1, queue_delay = 0;
  int32_t preemptions = 0, migrations = 0;
  int16_t nodes = 0, racks = 0;
  float slowdown = 1;               // of the last run (with congestion: the highest seen)
  int16_t retries = 0, failed_attempts = 0;
  JobOutcome outcome = JobOutcome::Completed;
  double wasted_gpu_s = 0;          // GPU-time held by failed attempts
};

struct Sample {
  double time = 0;         // seconds since the sample origin
  double util = 0;         // allocated GPU share averaged over the interval ending at `time`
  double used_gpus = 0;    // allocated GPUs at `time`
  int64_t pending = 0, running = 0;
  double frag_gpus = 0;    // free whole GPUs on nodes too small for the oldest pending job
  double fgd = 0;          // FGD score (GPUs) when fgd_samples
};

struct EngineResult {
  std::vector<JobRecord> jobs;  // by JobId
  std::vector<Sample> samples;
  int64_t preemptions = 0, migrations = 0, starts = 0, events = 0, rounds = 0;
  double makespan = 0;          // last end - first submit
  double gpu_seconds = 0;       // allocated GPU-time
  int total_gpus = 0;
};

class Engine;

// Runs one simulation. `vc_quota[v]` (GPUs, -1 = none) for the jobs' VC indices.
EngineResult run_engine(sched::ClusterState cluster, const std::vector<EngineJob>& jobs,
                        const std::vector<int>& vc_quota, const EngineOptions& opts,
                        const std::vector<sched::DemandClass>& workload = {});

}  // namespace mlsys::sim
