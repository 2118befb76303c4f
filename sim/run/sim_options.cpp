#include "sim/run/sim_options.hpp"

#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"
#include "core/runtime/command.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {

const config::Section<SimOptions>& sim_section() {
  using S = SimOptions;
  static const config::Section<S> s("sim", "Cluster simulator (AnalySIM)", [](auto& s) {
    s.field("mode", &S::mode, "What to run (the first word after `simulate`)")
        .choices_described([] { return mode_choices("simulate"); });
    s.nest("", &S::engine, engine_scheduling_section());
    s.field("estimator", &S::estimator, "Duration estimator for SJF/QSSF/SRTF/EASY").choices_described([] { return estimator_registry().choices(); });
    s.field("hints_file", &S::hints_file, "estimator hints: CSV job_id,predicted_duration_s,uncertainty_s,failure_action");
    s.field("default_estimate_s", &S::default_estimate_s, "Estimate when no history exists yet (seconds)").range(0, 1e12);
    s.field("load_factor", &S::load_factor, "Arrival-rate multiplier (submit times are divided by it)").range(1e-3, 1e3);
    s.nest("cluster", &S::cluster, cluster_section());
    s.nest("", &S::engine, engine_costs_section());
    s.field("comm_profiles", &S::comm_profiles,
            "slowdown_model links: model size per job type, builtin (the table in docs/simulate.md) or a CSV "
            "job_type,params_m");
    s.field("comm_iteration_s", &S::comm_iteration_s,
            "slowdown_model links: iteration time of jobs whose trace gives no step count (seconds)")
        .range(1e-6, 1e6);
    s.nest("retry", &S::retry, retry_section());
    s.nest("", &S::engine, engine_policy_section());
    s.nest("", &S::engine, engine_sampling_section());
    s.field("per_job_csv", &S::per_job_csv, "Write jobs.csv (one row per job)");
    s.field("plots", &S::plots, "Write SVG plots (JCT CDF, utilization and queue over time)");
    s.field("compare.policies", &S::compare_policies, "compare: policies to sweep (empty = sim.policy)").choices_described([] { return sched::policy_registry().choices(); });
    s.field("compare.placers", &S::compare_placers, "compare: placers to sweep (empty = sim.placer)").choices_described([] { return sched::placer_registry().choices(); });
    s.field("compare.estimators", &S::compare_estimators, "compare: estimators to sweep (empty = sim.estimator)").choices_described([] { return estimator_registry().choices(); });
    s.field("compare.load_factors", &S::compare_load_factors, "compare: load factors to sweep (empty = sim.load_factor)");
    s.field("compare.cluster_scales", &S::compare_cluster_scales, "compare: cluster size multipliers to sweep (empty = sim.cluster.scale)");
    s.field("compare.retry_policies", &S::compare_retry_policies, "compare: failure handling to sweep (empty = sim.retry.policy)").choices(retry_policy_names());
    s.field("helios.cluster_log", &S::helios_cluster_log, "helios: Helios-format cluster_log.csv (empty = the shared reference inputs)");
    s.field("helios.vc_config", &S::helios_vc_config, "helios: VC node counts (empty = vc_config.csv next to the log)");
    s.field("helios.priorities", &S::helios_priorities, "helios: QSSF priority input jobname,priority (empty = qssf_priority.csv next to the log)");
    s.field("helios.policies", &S::helios_policies, "helios: policies to run").choices({"fifo", "sjf", "srtf", "qssf"});
    s.field("helios.event_driven", &S::helios_event_driven, "helios: also run the same inputs in the event-driven engine");
  });
  return s;
}

}  // namespace mlsys::sim
