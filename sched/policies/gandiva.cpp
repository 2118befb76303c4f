// FIFO plus Gandiva-style migration for defragmentation (Xiao et al., OSDI'18): when the queue
// head fits by GPU count but no node has room for it, small running jobs are moved off the most
// promising node (the one with the most free GPUs) onto other nodes' free GPUs, paying the
// migration penalty, so the head can start consolidated.
#include <algorithm>
#include <deque>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

struct GandivaTunables {
  int max_migrations_per_round = 4;
};

const config::Section<GandivaTunables>& gandiva_tunables() {
  static const config::Section<GandivaTunables> s("gandiva", "Gandiva migration", [](auto& s) {
    s.field("max_migrations_per_round", &GandivaTunables::max_migrations_per_round, "gandiva: migrations per scheduling round").range(0, 1e9);
  });
  return s;
}
const bool tunables_registered = add_policy_tunables(gandiva_tunables());

class Gandiva final : public Policy {
 public:
  explicit Gandiva(const PolicyParams& p) : max_moves_(p.get(gandiva_tunables()).max_migrations_per_round) {}
  bool preemptive() const override { return true; }
  void on_submit(JobId j, const ClusterView&) override { queue_.push_back(j); }
  void on_finish(JobId, const ClusterView&) override {}

  void schedule(SchedulerContext& ctx) override {
    while (!queue_.empty()) {
      if (ctx.try_start(queue_.front())) {
        queue_.pop_front();
        continue;
      }
      if (!defragment(ctx, ctx.job(queue_.front())) || !ctx.try_start(queue_.front())) break;
      queue_.pop_front();
    }
  }

 private:
  // Plans moves on GPU counts first and only migrates when the plan frees enough GPUs.
  bool defragment(SchedulerContext& ctx, const JobInfo& head) {
    const auto& c = ctx.cluster();
    const int g = head.num_gpus;
    if (g <= 1 || head.gpu_milli < 1000 || g > c.max_node_gpus() || c.total_free_gpus() < g) return false;
    int target = -1;
    for (int n = 0; n < c.num_nodes(); ++n)
      if (c.node(n).gpus >= g && (head.gpu_type < 0 || c.node(n).gpu_type == head.gpu_type) &&
          (target < 0 || c.free_gpus(n) > c.free_gpus(target)))
        target = n;
    if (target < 0) return false;
    // Single-node whole-GPU jobs on the target, smallest first.
    std::vector<JobId> movable;
    for (JobId j : ctx.running()) {
      const auto& a = ctx.allocation(j);
      const auto& job = ctx.job(j);
      if (job.gpu_milli < 1000 || job.num_gpus == 0 || a.empty() || a[0].node != target || count_nodes(a) != 1) continue;
      movable.push_back(j);
    }
    std::stable_sort(movable.begin(), movable.end(),
                     [&](JobId a, JobId b) { return ctx.job(a).num_gpus < ctx.job(b).num_gpus; });
    std::vector<int> free(static_cast<size_t>(c.num_nodes()));
    for (int n = 0; n < c.num_nodes(); ++n) free[n] = c.free_gpus(n);
    std::vector<std::pair<JobId, int>> plan;
    for (JobId j : movable) {
      if (free[target] >= g || static_cast<int>(plan.size()) >= max_moves_) break;
      const int need = ctx.job(j).num_gpus;
      int dest = -1;
      for (int n = 0; n < c.num_nodes(); ++n)
        if (n != target && free[n] >= need && (dest < 0 || free[n] < free[dest]) && c.can_host(n, ctx.job(j), need))
          dest = n;
      if (dest < 0) continue;
      free[dest] -= need;
      free[target] += need;
      plan.emplace_back(j, dest);
    }
    if (free[target] < g) return false;
    for (const auto& [j, dest] : plan) {
      Allocation a;
      ctx.cluster().pick_gpus(dest, ctx.job(j), ctx.job(j).num_gpus, a);
      ctx.migrate(j, a);
    }
    return true;
  }

  int max_moves_;
  std::deque<JobId> queue_;
};

const bool registered = policy_registry().add(
    "gandiva", "FIFO plus migration of small jobs to defragment nodes for the queue head (Gandiva, Xiao et al., OSDI'18)",
    [](const PolicyParams& p) { return std::make_unique<Gandiva>(p); });

}  // namespace
}  // namespace mlsys::sched
