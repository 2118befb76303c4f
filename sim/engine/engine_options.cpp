#include "sim/engine/engine_options.hpp"

#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"

namespace mlsys::sim {

const config::Section<EngineOptions>& engine_scheduling_section() {
  using E = EngineOptions;
  static const config::Section<E> s("engine", "Scheduling and placement", [](auto& s) {
    s.field("policy", &E::policy, "Scheduling policy").choices_described([] { return sched::policy_registry().choices(); });
    s.field("placer", &E::placer, "Placement policy").choices_described([] { return sched::placer_registry().choices(); });
  });
  return s;
}

const config::Section<EngineOptions>& engine_costs_section() {
  using E = EngineOptions;
  static const config::Section<E> s("engine", "Costs and slowdown of the simulated cluster", [](auto& s) {
    s.nest("", &E::preemption, sched::preemption_penalty_section());
    s.nest("", &E::migration, sched::migration_penalty_section());
    s.field("slowdown", &E::slowdown, "Slowdown model: jobs spread over more nodes/racks than needed run slower");
    s.field("slowdown_model", &E::slowdown_model,
            "With slowdown: constant (factors per extra node/rack, congestion_per_job) or links (communication "
            "over the cluster's link bandwidths, shared links divided among the jobs crossing them)")
        .choices_described([] {
          return std::vector<config::Choice>{
              {"constant", "1 + slowdown_per_extra_node x extra nodes + slowdown_per_extra_rack x extra racks"},
              {"links", "each job's gradient traffic (comm_profiles) on the slowest link it crosses, shared fairly"}};
        });
    s.field("slowdown_per_extra_node", &E::slowdown_per_extra_node, "Run-time factor added per node beyond the minimum").range(0, 100);
    s.field("slowdown_per_extra_rack", &E::slowdown_per_extra_rack, "Run-time factor added per rack beyond the first").range(0, 100);
    s.field("congestion_per_job", &E::congestion_per_job, "Slowdown model: factor added per other multi-node job sharing the busiest rack a multi-node job spans (0 = off)").range(0, 100);
  });
  return s;
}

const config::Section<EngineOptions>& engine_policy_section() {
  static const config::Section<EngineOptions> s("engine", "Policy tunables", [](auto& s) {
    s.nest("", &EngineOptions::policy_params, sched::policy_params_section());
  });
  return s;
}

const config::Section<EngineOptions>& engine_sampling_section() {
  static const config::Section<EngineOptions> s("engine", "Time series", [](auto& s) {
    s.field("sample_interval_s", &EngineOptions::sample_interval, "Time-series step for utilization/queue/fragmentation (0 = none)").range(0, 1e12);
    s.field("max_samples", &EngineOptions::max_samples,
            "Most time-series samples a run may hold (about 64 bytes each); a smaller sample_interval_s that "
            "would exceed it is refused")
        .range(1, 1e9);
  });
  return s;
}

}  // namespace mlsys::sim
