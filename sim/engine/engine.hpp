#pragma once
// The discrete-event engine. It owns the clock (core EventQueue), the cluster's free resources
// and every job's lifecycle (submit, queue, start, preempt with checkpoint penalty, resume,
// migrate, finish), and knows nothing of policies: it calls the configured policy through
// sched::SchedulerContext and validates each decision (capacity never exceeded, no GPU given
// twice, quotas kept, each job finished exactly once), throwing an Error that names the policy.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sched/api/cluster_state.hpp"
#include "sched/api/penalty.hpp"
#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"

namespace mlsys::sim {

struct EngineOptions {
  std::string policy = "fifo";
  std::string placer = "consolidate";
  sched::PolicyParams policy_params;
  uint64_t seed = 1;
  sched::PenaltyModel preemption;  // paid when a preempted job restarts
  sched::PenaltyModel migration;   // paid by a migrated job
  double sample_interval = 3600;   // time-series step in seconds; 0 = none
  double sample_origin = 0;        // samples fall at origin + k x interval (shared by partitions)
  bool has_sample_origin = false;  // false: the first submit time
  // Slowdown model: a job spread over more nodes/racks than it needs runs slower.
  bool slowdown = false;
  double slowdown_per_extra_node = 0.1;
  double slowdown_per_extra_rack = 0.25;
  bool borrowing = false;          // VCs may exceed quota (else the engine rejects such starts)
  bool fgd_samples = false;        // compute the FGD fragmentation score at each sample
};

struct EngineJob {
  sched::JobInfo info;
  double duration = 0;  // true run time
};

struct JobRecord {
  double first_start = -1, end = -1, queue_delay = 0;
  int32_t preemptions = 0, migrations = 0;
  int16_t nodes = 0, racks = 0;
  float slowdown = 1;
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
