#pragma once
// Scheduling policy plug-in interface. Each policy lives in its own file under sched/policies/
// and registers itself with a name and a description that cites its paper.
//
// The engine calls on_submit when a job arrives, on_finish when a job leaves the system, then
// schedule() once per distinct event time (and at times the policy asked for via wake_at).
#include <memory>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "sched/api/cluster_view.hpp"

namespace mlsys::sched {

// Tunables of the policies that have any (one struct so the config binds them in one place).
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

class Policy {
 public:
  virtual ~Policy() = default;
  virtual void on_submit(JobId j, const ClusterView& view) = 0;
  virtual void on_finish(JobId j, const ClusterView& view) = 0;
  virtual void schedule(SchedulerContext& ctx) = 0;
  // True when the policy may preempt (the engine then tracks checkpoint penalties).
  virtual bool preemptive() const { return false; }
};

using PolicyRegistry = Registry<Policy, const PolicyParams&>;
PolicyRegistry& policy_registry();
std::vector<std::string> policy_names();

}  // namespace mlsys::sched
