#pragma once
// The `sim:` config section: mode, policy, placer, estimator, cluster, costs, outputs, the
// compare sweep and the Helios compatibility inputs. The trace comes from the `trace:` section
// (or the `tracegen:` generator when trace.path is empty).
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "sim/engine/failures.hpp"

namespace mlsys::sim {

struct SimOptions {
  std::string mode = "run";  // run | compare | stats | generate | tracegen | helios | fill
  std::string policy = "fifo";
  std::string placer = "consolidate";
  std::string estimator = "oracle";
  std::string hints_file;
  double default_estimate_s = 3600;
  double load_factor = 1;  // arrival times divided by this (2 = twice the load)
  // Cluster (keys cluster.*; see ClusterOptions).
  std::string cluster_kind = "uniform", cluster_path, cluster_gpu_type = "v100", cluster_partition = "auto";
  config::YamlValue cluster_topology;
  int cluster_nodes = 16, cluster_gpus_per_node = 8, cluster_nodes_per_rack = 8, cluster_racks_per_spine = 8;
  int64_t cluster_cpu_milli = 0, cluster_memory_mib = 0;
  bool cluster_borrowing = false;
  std::vector<std::string> cluster_vcs;
  std::vector<int> cluster_vc_quotas;
  int cluster_default_vc_nodes = 1;
  double cluster_scale = 1;
  ClusterOptions cluster() const;
  // Costs.
  double preempt_1gpu_s = 7, preempt_8gpu_s = 30, preempt_large_s = 60;
  double migrate_1gpu_s = 7, migrate_8gpu_s = 30, migrate_large_s = 60;
  bool slowdown = false;
  double slowdown_per_extra_node = 0.1, slowdown_per_extra_rack = 0.25;
  double congestion_per_job = 0;
  // Failed jobs and retries (keys retry.*; see RetryOptions in sim/engine/failures.hpp).
  std::string retry_policy = "none", retry_causes_file, retry_default_cause = "transient";
  int retry_max_retries = 3;
  double retry_delay_s = 0, retry_success_factor = 1;
  bool retry_killed = false;
  RetryOptions retry() const;
  // Policy tunables.
  int backfill_depth = 256;
  std::vector<double> las_thresholds = {3600, 36000};
  double las_round_s = 60;
  double las_starvation_factor = 10;
  int max_migrations_per_round = 4;
  // Outputs.
  double sample_interval_s = 3600;
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
