#include "sim/run/sim_options.hpp"

#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"
#include "sim/command.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {

const config::Section<SimOptions>& sim_section() {
  using S = SimOptions;
  static const config::Section<S> s("sim", "Cluster simulator (AnalySIM)", [](auto& s) {
    s.field("mode", &S::mode, "What to run (the first word after `simulate`)")
        .choices_described([] { return mode_choices(simulate_command()); });
    s.field("policy", &S::policy, "Scheduling policy").choices_described([] { return sched::policy_registry().choices(); });
    s.field("placer", &S::placer, "Placement policy").choices_described([] { return sched::placer_registry().choices(); });
    s.field("estimator", &S::estimator, "Duration estimator for SJF/QSSF/SRTF/EASY").choices_described([] { return estimator_registry().choices(); });
    s.field("hints_file", &S::hints_file, "estimator hints: CSV job_id,predicted_duration_s,uncertainty_s,failure_action");
    s.field("default_estimate_s", &S::default_estimate_s, "Estimate when no history exists yet (seconds)").range(0, 1e12);
    s.field("load_factor", &S::load_factor, "Arrival-rate multiplier (submit times are divided by it)").range(1e-3, 1e3);
    s.field("cluster.kind", &S::cluster_kind, "Cluster builder: uniform, yaml (topology), philly (VC node counts, hard partitions), openb (node list), tiresias (spec CSV)")
        .choices({"uniform", "yaml", "philly", "openb", "tiresias"});
    s.field("cluster.path", &S::cluster_path, "File for the builder: YAML topology, openb node list, philly_vc_nodes.csv or Tiresias cluster spec");
    s.field("cluster.topology", &S::cluster_topology, "Inline YAML topology (kind yaml): racks, nodes, GPU types, links, VCs");
    s.field("cluster.nodes", &S::cluster_nodes, "uniform: number of nodes").range(1, 1e7);
    s.field("cluster.gpus_per_node", &S::cluster_gpus_per_node, "uniform/philly: GPUs per node").range(0, 64);
    s.field("cluster.nodes_per_rack", &S::cluster_nodes_per_rack, "Nodes per rack (generated clusters)").range(1, 1e6);
    s.field("cluster.racks_per_spine", &S::cluster_racks_per_spine, "Racks per spine switch (generated clusters)").range(1, 1e6);
    s.field("cluster.gpu_type", &S::cluster_gpu_type, "GPU model of generated clusters");
    s.field("cluster.cpu_milli", &S::cluster_cpu_milli, "CPU per node in thousandths of a core (0 = unconstrained)").range(0, 1e12);
    s.field("cluster.memory_mib", &S::cluster_memory_mib, "Memory per node in MiB (0 = unconstrained)").range(0, 1e12);
    s.field("cluster.partition", &S::cluster_partition, "auto (philly: hard, else shared), hard (each VC on its own nodes, as Helios) or shared (one pool, VC quotas)")
        .choices({"auto", "hard", "shared"});
    s.field("cluster.borrowing", &S::cluster_borrowing, "Shared pool: VCs may borrow idle GPUs beyond their quota (reclaimed by preemption under fairshare)");
    s.field("cluster.vcs", &S::cluster_vcs, "Shared pool: VC names that get a quota");
    s.field("cluster.vc_quotas", &S::cluster_vc_quotas, "Shared pool: guaranteed GPUs of each cluster.vcs entry");
    s.field("cluster.default_vc_nodes", &S::cluster_default_vc_nodes, "philly: nodes for trace VCs missing from the node-count file").range(0, 1e6);
    s.field("cluster.scale", &S::cluster_scale, "Multiplies node counts (sweeps over cluster size)").range(1e-3, 1e3);
    s.field("preempt_1gpu_s", &S::preempt_1gpu_s, "Checkpoint/restore penalty of a preempted 1-GPU job (Helios: 7 s)").range(0, 1e9);
    s.field("preempt_8gpu_s", &S::preempt_8gpu_s, "... of a 2-8 GPU job (Helios: 30 s)").range(0, 1e9);
    s.field("preempt_large_s", &S::preempt_large_s, "... of a job above 8 GPUs (Helios: 60 s)").range(0, 1e9);
    s.field("migrate_1gpu_s", &S::migrate_1gpu_s, "Migration penalty of a 1-GPU job").range(0, 1e9);
    s.field("migrate_8gpu_s", &S::migrate_8gpu_s, "Migration penalty of a 2-8 GPU job").range(0, 1e9);
    s.field("migrate_large_s", &S::migrate_large_s, "Migration penalty of a job above 8 GPUs").range(0, 1e9);
    s.field("slowdown", &S::slowdown, "Slowdown model: jobs spread over more nodes/racks than needed run slower");
    s.field("slowdown_per_extra_node", &S::slowdown_per_extra_node, "Run-time factor added per node beyond the minimum").range(0, 100);
    s.field("slowdown_per_extra_rack", &S::slowdown_per_extra_rack, "Run-time factor added per rack beyond the first").range(0, 100);
    s.field("congestion_per_job", &S::congestion_per_job, "Slowdown model: factor added per other multi-node job sharing the busiest rack a multi-node job spans (0 = off)").range(0, 100);
    s.field("retry.policy", &S::retry_policy, "Failed jobs: none (end at their trace time), all (resubmit every failure), hints (act on the failure_action column of sim.hints_file)")
        .choices({"none", "all", "hints"});
    s.field("retry.max_retries", &S::retry_max_retries, "Retries per failed job (policies all, hints)").range(0, 1000);
    s.field("retry.delay_s", &S::retry_delay_s, "Seconds between a failed attempt and its resubmission").range(0, 1e12);
    s.field("retry.killed", &S::retry_killed, "Treat killed jobs as failed (wasted GPU-time, retries)");
    s.field("retry.causes_file", &S::retry_causes_file, "Ground truth of failures: CSV job_id,cause[,duration_s] (cause transient|node|memory|persistent; duration_s: run time of a successful retry)");
    s.field("retry.default_cause", &S::retry_default_cause, "Cause of failed jobs missing from retry.causes_file").choices_from(failure_cause_names);
    s.field("retry.success_factor", &S::retry_success_factor, "A successful retry runs this x the trace duration (when no duration_s is given)").range(0, 1e6);
    s.field("backfill_depth", &S::backfill_depth, "easy: queued jobs examined behind the head per round").range(0, 1e9);
    s.field("las_thresholds", &S::las_thresholds, "las: attained-service thresholds between queues (GPU-seconds)");
    s.field("las_round_s", &S::las_round_s, "las: scheduling round (seconds)").range(1e-3, 1e9);
    s.field("las_starvation_factor", &S::las_starvation_factor, "las: promote a job waiting longer than this x its run time (0 = off)").range(0, 1e9);
    s.field("max_migrations_per_round", &S::max_migrations_per_round, "gandiva: migrations per scheduling round").range(0, 1e9);
    s.field("sample_interval_s", &S::sample_interval_s, "Time-series step for utilization/queue/fragmentation (0 = none)").range(0, 1e12);
    s.field("per_job_csv", &S::per_job_csv, "Write jobs.csv (one row per job)");
    s.field("plots", &S::plots, "Write SVG plots (JCT CDF, utilization and queue over time)");
    s.field("compare.policies", &S::compare_policies, "compare: policies to sweep (empty = sim.policy)").choices_described([] { return sched::policy_registry().choices(); });
    s.field("compare.placers", &S::compare_placers, "compare: placers to sweep (empty = sim.placer)").choices_described([] { return sched::placer_registry().choices(); });
    s.field("compare.estimators", &S::compare_estimators, "compare: estimators to sweep (empty = sim.estimator)").choices_described([] { return estimator_registry().choices(); });
    s.field("compare.load_factors", &S::compare_load_factors, "compare: load factors to sweep (empty = sim.load_factor)");
    s.field("compare.cluster_scales", &S::compare_cluster_scales, "compare: cluster size multipliers to sweep (empty = sim.cluster.scale)");
    s.field("compare.retry_policies", &S::compare_retry_policies, "compare: failure handling to sweep (empty = sim.retry.policy)").choices({"none", "all", "hints"});
    s.field("helios.cluster_log", &S::helios_cluster_log, "helios: Helios-format cluster_log.csv (empty = the shared reference inputs)");
    s.field("helios.vc_config", &S::helios_vc_config, "helios: VC node counts (empty = vc_config.csv next to the log)");
    s.field("helios.priorities", &S::helios_priorities, "helios: QSSF priority input jobname,priority (empty = qssf_priority.csv next to the log)");
    s.field("helios.policies", &S::helios_policies, "helios: policies to run").choices({"fifo", "sjf", "srtf", "qssf"});
    s.field("helios.event_driven", &S::helios_event_driven, "helios: also run the same inputs in the event-driven engine");
  });
  return s;
}

RetryOptions SimOptions::retry() const {
  RetryOptions r;
  r.policy = retry_policy;
  r.max_retries = retry_max_retries;
  r.delay_s = retry_delay_s;
  r.killed = retry_killed;
  r.causes_file = retry_causes_file;
  r.default_cause = retry_default_cause;
  r.success_factor = retry_success_factor;
  return r;
}

ClusterOptions SimOptions::cluster() const {
  ClusterOptions c;
  c.kind = cluster_kind;
  c.path = cluster_path;
  c.topology = cluster_topology;
  c.nodes = cluster_nodes;
  c.gpus_per_node = cluster_gpus_per_node;
  c.nodes_per_rack = cluster_nodes_per_rack;
  c.racks_per_spine = cluster_racks_per_spine;
  c.gpu_type = cluster_gpu_type;
  c.cpu_milli = cluster_cpu_milli;
  c.memory_mib = cluster_memory_mib;
  c.partition = cluster_partition;
  c.borrowing = cluster_borrowing;
  c.vcs = cluster_vcs;
  c.vc_quotas = cluster_vc_quotas;
  c.default_vc_nodes = cluster_default_vc_nodes;
  c.scale = cluster_scale;
  return c;
}

}  // namespace mlsys::sim
