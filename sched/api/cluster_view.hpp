#pragma once
// The narrow interface between the engine and a policy. A policy reads the cluster through
// ClusterView (queue, running jobs, free resources per node and VC, time) and submits decisions
// through SchedulerContext (start, preempt, migrate, wake me at t). The engine validates each
// decision the moment it is submitted and throws an error naming the policy when it is invalid,
// so the view the policy reads always reflects its own earlier decisions of the same round.
#include <cstddef>
#include <string>
#include <vector>

#include "sched/api/allocation.hpp"
#include "sched/api/cluster_state.hpp"
#include "sched/api/job_info.hpp"

namespace mlsys::sched {

class ClusterView {
 public:
  virtual ~ClusterView() = default;
  virtual double now() const = 0;
  virtual const ClusterState& cluster() const = 0;

  virtual size_t num_jobs() const = 0;
  virtual const JobInfo& job(JobId j) const = 0;
  virtual JobStatus status(JobId j) const = 0;
  // Useful run time the job has received so far (seconds, excluding checkpoint overheads).
  virtual double executed(JobId j) const = 0;
  // Time the job last (re)entered the queue, and last started (-1 before its first start).
  virtual double queued_since(JobId j) const = 0;
  virtual double last_start(JobId j) const = 0;
  virtual const Allocation& allocation(JobId j) const = 0;
  // estimate - executed, never below 0.
  double remaining_estimate(JobId j) const {
    double r = job(j).estimate - executed(j);
    return r > 0 ? r : 0;
  }

  virtual const std::vector<JobId>& running() const = 0;
  virtual size_t pending_count() const = 0;

  // Virtual clusters of a shared pool: guaranteed GPUs (-1 = no quota) and GPUs in use.
  virtual int num_vcs() const = 0;
  virtual int vc_quota(int vc) const = 0;
  virtual int vc_used(int vc) const = 0;
  // Whether a VC may run jobs beyond its quota on idle GPUs (reclaimed by preemption).
  virtual bool borrowing() const = 0;
};

class SchedulerContext : public ClusterView {
 public:
  // Asks the configured placer for a placement of pending job j on the free resources now.
  virtual bool find_placement(JobId j, Allocation& out) = 0;
  // find_placement + start; false (and nothing changes) when the placer finds nothing.
  virtual bool try_start(JobId j) = 0;
  // Starts pending job j on `a`. Throws Error naming the policy when invalid.
  virtual void start(JobId j, const Allocation& a) = 0;
  // Stops running job j (checkpoint); it becomes pending again and pays the restore penalty on
  // its next start.
  virtual void preempt(JobId j) = 0;
  // Moves running job j to `a` (which may reuse its own GPUs), paying the migration penalty.
  virtual void migrate(JobId j, const Allocation& a) = 0;
  // Calls the policy again at time t even if no job arrives or ends then.
  virtual void wake_at(double t) = 0;
};

}  // namespace mlsys::sched
