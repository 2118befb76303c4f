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
#include "sched/api/policy_params.hpp"

namespace mlsys::sched {

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
