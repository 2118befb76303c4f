#pragma once
// What one engine run is told: policy and placer (with the policies' tunables), the costs of
// preemption and migration, the slowdown and congestion model, sampling, retries, quotas. The
// config keys of policy, placer and the tunables are declared here, once; sim/run/sim_options.cpp
// nests them into the `sim:` section, in four blocks because the keys keep the places they always had there.
#include <cstdint>
#include <string>

#include "core/config/schema.hpp"
#include "sched/api/penalty.hpp"
#include "sched/api/policy_params.hpp"
#include "sim/engine/links.hpp"

namespace mlsys::sim {

struct EngineOptions {
  std::string policy = "fifo";
  std::string placer = "consolidate";
  sched::PolicyParams policy_params;
  uint64_t seed = 1;
  sched::PenaltyModel preemption;  // paid when a preempted job restarts
  sched::PenaltyModel migration;   // paid by a migrated job
  double sample_interval = 3600;   // time-series step in seconds; 0 = none
  int64_t max_samples = 1000000;   // the series' cap: refused up front (or when reached) above it
  double sample_origin = 0;        // samples fall at origin + k x interval (shared by partitions)
  bool has_sample_origin = false;  // false: the first submit time
  // Slowdown model: a job spread over more nodes/racks than it needs runs slower. `constant`:
  // the factors below; `links`: the time its communication takes on the slowest link it crosses,
  // shared links divided among the jobs crossing them (sim/engine/links.hpp).
  bool slowdown = false;
  std::string slowdown_model = "constant";
  LinkBandwidths links;            // from the cluster (links model)
  double slowdown_per_extra_node = 0.1;
  double slowdown_per_extra_rack = 0.25;
  // Congestion (with slowdown): factor per other multi-node job on the busiest rack a multi-node
  // job spans; 0 = off.
  double congestion_per_job = 0;
  // Retries of failed attempts (0 = a failed job ends at its trace time) and resubmission delay.
  int max_retries = 0;
  double retry_delay = 0;
  bool borrowing = false;          // VCs may exceed quota (else the engine rejects such starts)
  bool fgd_samples = false;        // compute the FGD fragmentation score at each sample
};

// policy and placer (the keys sim.policy and sim.placer; a compare sweep sets them per run).
const config::Section<EngineOptions>& engine_scheduling_section();
// preempt_*, migrate_* (sched/api/penalty.hpp), slowdown, slowdown_per_extra_node,
// slowdown_per_extra_rack, congestion_per_job.
const config::Section<EngineOptions>& engine_costs_section();
// The policies' tunables (sched/api/policy_params.hpp) in policy_params.
const config::Section<EngineOptions>& engine_policy_section();
// sample_interval_s.
const config::Section<EngineOptions>& engine_sampling_section();

}  // namespace mlsys::sim
