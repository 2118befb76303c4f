// Shortest remaining time first, preemptive (the SRTF baseline of Helios, Hu et al., SC'21): at
// every event the pending and running jobs are ordered by estimated remaining time; walking that
// order with the cluster's GPU capacity, jobs that fit keep (or get) GPUs and running jobs that no
// longer fit are preempted. Pending jobs that do not fit are skipped (no head-of-line blocking).
#include <algorithm>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

class Srtf final : public Policy {
 public:
  void on_submit(JobId j, const ClusterView&) override { pending_.push_back(j); }
  void on_finish(JobId, const ClusterView&) override {}
  bool preemptive() const override { return true; }

  void schedule(SchedulerContext& ctx) override {
    if (pending_.empty()) return;
    struct Item {
      double remain;
      bool running;
      size_t order;
      JobId j;
    };
    std::vector<Item> items;
    items.reserve(pending_.size() + ctx.running().size());
    size_t order = 0;
    for (JobId j : pending_) items.push_back({ctx.remaining_estimate(j), false, order++, j});
    for (JobId j : ctx.running()) items.push_back({ctx.remaining_estimate(j), true, order++, j});
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      if (a.remain != b.remain) return a.remain < b.remain;
      return a.order < b.order;  // pending first, each in list order
    });
    int64_t quota = int64_t{ctx.cluster().total_gpus()} * 1000;
    std::vector<JobId> to_start, to_preempt;
    for (const auto& it : items) {
      const auto& job = ctx.job(it.j);
      const int64_t use = int64_t{job.num_gpus} * job.gpu_milli;
      if (use <= quota) {
        quota -= use;
        if (!it.running) to_start.push_back(it.j);
      } else if (it.running) {
        to_preempt.push_back(it.j);
      }
    }
    for (JobId j : to_preempt) {
      ctx.preempt(j);
      pending_.push_back(j);
    }
    for (JobId j : to_start)
      if (ctx.try_start(j)) pending_.erase(std::find(pending_.begin(), pending_.end(), j));
  }

 private:
  std::vector<JobId> pending_;
};

const bool registered = policy_registry().add(
    "srtf", "Shortest remaining time first, preemptive, by estimated remaining time (SRTF baseline of Helios, Hu et al., SC'21)",
    [](const PolicyParams&) { return std::make_unique<Srtf>(); });

}  // namespace
}  // namespace mlsys::sched
