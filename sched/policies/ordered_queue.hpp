#pragma once
// A pending queue ordered by a key (ties by job id, i.e. submit order), with strict head-of-line
// blocking: the shared core of the non-preemptive priority policies (SJF, QSSF).
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {

class OrderedHolPolicy : public Policy {
 public:
  void on_submit(JobId j, const ClusterView& view) override { queue_.emplace(key(view.job(j)), j); }
  void on_finish(JobId, const ClusterView&) override {}
  void schedule(SchedulerContext& ctx) override {
    while (!queue_.empty() && ctx.try_start(queue_.top().second)) queue_.pop();
  }

 protected:
  virtual double key(const JobInfo& job) const = 0;

 private:
  using Item = std::pair<double, JobId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
};

}  // namespace mlsys::sched
