// Quota / fair share across virtual clusters (the capacity-scheduler model of multi-tenant GPU
// clusters, as in Philly, Jeon et al., ATC'19): each VC has a guaranteed GPU quota and its own
// FIFO queue; VCs furthest below their quota go first. With borrowing on, idle GPUs run other
// VCs' jobs beyond their quota, and a VC that needs its guaranteed GPUs back reclaims them by
// preempting the most recently started borrowing jobs.
#include <algorithm>
#include <deque>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

class FairShare final : public Policy {
 public:
  bool preemptive() const override { return true; }
  void on_submit(JobId j, const ClusterView& v) override { queue(v.job(j).vc).push_back(j); }
  void on_finish(JobId, const ClusterView&) override {}

  void schedule(SchedulerContext& ctx) override {
    // 1. Guaranteed shares, VCs furthest below quota first.
    for (int v : by_share(ctx)) {
      auto& q = queue(v);
      while (!q.empty()) {
        const auto& job = ctx.job(q.front());
        const int quota = ctx.vc_quota(v);
        if (quota >= 0 && ctx.vc_used(v) + job.num_gpus > quota) break;
        if (!ctx.try_start(q.front()) && !(ctx.borrowing() && reclaim(ctx, q.front()))) break;
        q.pop_front();
      }
    }
    if (!ctx.borrowing()) return;
    // 2. Borrow idle GPUs.
    for (int v : by_share(ctx)) {
      auto& q = queue(v);
      while (!q.empty() && ctx.try_start(q.front())) q.pop_front();
    }
  }

 private:
  std::deque<JobId>& queue(int vc) {
    if (static_cast<size_t>(vc) >= queues_.size()) queues_.resize(static_cast<size_t>(vc) + 1);
    return queues_[vc];
  }
  std::vector<int> by_share(const ClusterView& ctx) {
    std::vector<int> vcs;
    for (int v = 0; v < static_cast<int>(queues_.size()); ++v)
      if (!queues_[v].empty()) vcs.push_back(v);
    auto ratio = [&](int v) {
      int q = ctx.vc_quota(v);
      return q > 0 ? double(ctx.vc_used(v)) / q : 1e18;
    };
    std::stable_sort(vcs.begin(), vcs.end(), [&](int a, int b) { return ratio(a) < ratio(b); });
    return vcs;
  }
  // Preempts borrowing jobs (their VC is over quota), newest first, until j can start.
  bool reclaim(SchedulerContext& ctx, JobId j) {
    while (true) {
      JobId victim = -1;
      for (JobId r : ctx.running()) {
        int v = ctx.job(r).vc;
        if (v == ctx.job(j).vc || ctx.vc_quota(v) < 0 || ctx.vc_used(v) <= ctx.vc_quota(v)) continue;
        if (victim < 0 || ctx.last_start(r) > ctx.last_start(victim) ||
            (ctx.last_start(r) == ctx.last_start(victim) && r > victim))
          victim = r;
      }
      if (victim < 0) return false;
      ctx.preempt(victim);
      queue(ctx.job(victim).vc).push_front(victim);
      if (ctx.try_start(j)) return true;
    }
  }

  std::vector<std::deque<JobId>> queues_;
};

const bool registered = policy_registry().add(
    "fairshare", "Per-VC quotas with FIFO queues, borrowing of idle GPUs and reclaim by preemption (Philly, Jeon et al., ATC'19)",
    [](const PolicyParams&) { return std::make_unique<FairShare>(); });

}  // namespace
}  // namespace mlsys::sched
