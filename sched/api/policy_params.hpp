#pragma once
// Tunables of the policies that have any: one struct, so a policy's factory gets them in one
// argument, and one config block (the keys below, nested unprefixed into the `sim:` section).
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::sched {

struct PolicyParams {
  // FIFO+EASY backfilling: how many queued jobs behind the head are examined per round.
  int backfill_depth = 256;
  // Tiresias 2D-LAS: attained-service thresholds (GPU-seconds) between priority queues, the
  // round length, and the starvation guard (a job waiting longer than factor x its last run time,
  // and at least one round, is promoted to the top queue; 0 disables).
  std::vector<double> las_thresholds = {3600, 36000};
  double las_round_s = 60;
  double las_starvation_factor = 10;
  // Gandiva-style migration: at most this many migrations per scheduling round.
  int max_migrations_per_round = 4;
};

// backfill_depth, las_thresholds, las_round_s, las_starvation_factor, max_migrations_per_round.
const config::Section<PolicyParams>& policy_params_section();

}  // namespace mlsys::sched
