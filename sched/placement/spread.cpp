// Spread: load balancing, as Kubernetes' default scoring (LeastAllocated) does it: each GPU of a
// job goes to the node with the most free GPUs at that moment (ties to the lower index), so jobs
// spread over as many nodes as they can. The opposite of consolidation: the baseline that shows
// what spreading costs once communication crosses links (sim.slowdown_model: links).
#include <map>
#include <queue>
#include <utility>

#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class Spread final : public Placer {
 public:
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    // Most free GPUs first, lower index on ties.
    std::priority_queue<std::pair<int, int>> most_free;  // (free GPUs, -node)
    for (int n = 0; n < c.num_nodes(); ++n)
      if (c.free_gpus(n) > 0 || job.num_gpus == 0 || job.gpu_milli < 1000) most_free.push({c.free_gpus(n), -n});
    if (job.num_gpus <= 1) {  // one GPU (whole or a share) or none: the emptiest node that can host it
      while (!most_free.empty()) {
        const int n = -most_free.top().second;
        most_free.pop();
        if (c.can_host(n, job, job.num_gpus)) {
          c.pick_gpus(n, job, job.num_gpus, out);
          return true;
        }
      }
      return false;
    }
    if (c.total_free_gpus() < job.num_gpus) return false;
    std::map<int, int> take;  // node -> GPUs, in node order
    int left = job.num_gpus;
    while (left > 0 && !most_free.empty()) {
      auto [free, neg] = most_free.top();
      most_free.pop();
      const int n = -neg;
      if (!c.can_host(n, job, take[n] + 1)) continue;  // no room for one more of its GPUs (CPU, memory, type)
      ++take[n];
      --left;
      if (free > 1) most_free.push({free - 1, neg});
    }
    if (left > 0) return false;
    for (const auto& [n, k] : take)
      if (k > 0) c.pick_gpus(n, job, k, out);
    return true;
  }
};

const bool registered = placer_registry().add(
    "spread", "Load balancing: each GPU on the node with the most free GPUs (Kubernetes' LeastAllocated spreading)",
    [](const PlacerParams&) { return std::make_unique<Spread>(); });

}  // namespace
}  // namespace mlsys::sched
