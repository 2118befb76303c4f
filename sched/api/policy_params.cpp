#include "sched/api/policy_params.hpp"

namespace mlsys::sched {

const config::Section<PolicyParams>& policy_params_section() {
  using P = PolicyParams;
  static const config::Section<P> s("policy", "Tunables of the scheduling policies", [](auto& s) {
    s.field("backfill_depth", &P::backfill_depth, "easy: queued jobs examined behind the head per round").range(0, 1e9);
    s.field("las_thresholds", &P::las_thresholds, "las: attained-service thresholds between queues (GPU-seconds)");
    s.field("las_round_s", &P::las_round_s, "las: scheduling round (seconds)").range(1e-3, 1e9);
    s.field("las_starvation_factor", &P::las_starvation_factor, "las: promote a job waiting longer than this x its run time (0 = off)").range(0, 1e9);
    s.field("max_migrations_per_round", &P::max_migrations_per_round, "gandiva: migrations per scheduling round").range(0, 1e9);
  });
  return s;
}

}  // namespace mlsys::sched
