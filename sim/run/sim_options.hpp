#pragma once
// The `sim:` config section: mode, policy, placer, estimator, cluster, costs, outputs, the
// compare sweep and the Helios compatibility inputs. The trace comes from the `trace:` section
// (or the `tracegen:` generator when trace.path is empty).
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "sim/engine/engine_options.hpp"
#include "sim/engine/retry_options.hpp"

namespace mlsys::sim {

struct SimOptions {
  std::string mode = "run";  // run | compare | stats | generate | tracegen | helios | fill
  std::string estimator = "oracle";
  std::string hints_file;
  double default_estimate_s = 3600;
  double load_factor = 1;  // arrival times divided by this (2 = twice the load)
  // Declared once beside the code that reads them, nested here (keys unchanged): cluster.*
  // (ClusterOptions), policy, placer, preempt_*/migrate_*/slowdown*/congestion_per_job, the policy
  // tunables and sample_interval_s (EngineOptions; a compare sweep sets policy and placer per run,
  // seed comes from run.seed), retry.* (RetryOptions).
  ClusterOptions cluster;
  EngineOptions engine;
  RetryOptions retry;
  // Links slowdown model: the jobs' communication profiles (sched/workload/comm_profile.hpp).
  std::string comm_profiles = "builtin";  // or a CSV job_type,params_m
  double comm_iteration_s = 0.5;          // iteration time of jobs whose trace has no step count
  // Outputs.
  bool per_job_csv = true;
  bool plots = true;
  // Compare sweep (empty list = the single value above).
  std::vector<std::string> compare_policies, compare_placers, compare_estimators;
  std::vector<double> compare_load_factors, compare_cluster_scales;
  std::vector<std::string> compare_retry_policies;
  // Helios compatibility mode inputs.
  std::string helios_cluster_log;  // "" = $MLSYS_DATA_DIR/../reference/helios_gavel/cluster_log.csv
  std::string helios_vc_config;    // "" = vc_config.csv next to the cluster log
  std::string helios_priorities;   // "" = qssf_priority.csv next to the cluster log (if present)
  std::vector<std::string> helios_policies = {"fifo", "sjf", "srtf", "qssf"};
  bool helios_event_driven = true;  // also run the same inputs in the event-driven engine
};

const config::Section<SimOptions>& sim_section();

}  // namespace mlsys::sim
