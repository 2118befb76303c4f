// Topology-aware placement: a job larger than one node goes to the single rack (else the single
// spine/pod) with the fewest free GPUs that can hold it, so it crosses as few switches as
// possible; only when no rack or pod can hold it does it spread, fullest racks first. Jobs of at
// most one node use best fit.
#include <algorithm>
#include <vector>

#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class Topology final : public Placer {
 public:
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (single_node_job(job, c)) return best_fit_node(job, c, out);
    if (c.total_free_gpus() < job.num_gpus) return false;
    // Try one rack, then one spine, then anything.
    for (int level = 0; level < 2; ++level) {
      std::vector<int> free(static_cast<size_t>(c.num_nodes()) + 1, 0);
      int groups = 0;
      for (int n = 0; n < c.num_nodes(); ++n) {
        int gid = level == 0 ? c.node(n).rack : c.node(n).spine;
        groups = std::max(groups, gid + 1);
        if (gid < static_cast<int>(free.size())) free[gid] += c.free_gpus(n);
      }
      std::vector<int> order;
      for (int gid = 0; gid < groups && gid < static_cast<int>(free.size()); ++gid)
        if (free[gid] >= job.num_gpus) order.push_back(gid);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return free[a] < free[b]; });
      for (int gid : order)
        if (fill(job, c, out, [&](int n) { return (level == 0 ? c.node(n).rack : c.node(n).spine) == gid; }))
          return true;
    }
    return fill(job, c, out, [](int) { return true; });
  }

 private:
  // Takes the most-free nodes of the group first (fewest nodes), ties by index.
  template <class InGroup>
  static bool fill(const JobInfo& job, const ClusterState& c, Allocation& out, InGroup&& in) {
    std::vector<int> nodes;
    for (int n = 0; n < c.num_nodes(); ++n)
      if (in(n) && c.free_gpus(n) > 0) nodes.push_back(n);
    std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) { return c.free_gpus(a) > c.free_gpus(b); });
    int left = job.num_gpus;
    for (int n : nodes) {
      if (left == 0) break;
      int take = std::min(left, c.free_gpus(n));
      if (!c.can_host(n, job, take)) continue;
      c.pick_gpus(n, job, take, out);
      left -= take;
    }
    if (left > 0) out.clear();
    return left == 0;
  }
};

const bool registered = placer_registry().add(
    "topology",
    "Topology-aware: large jobs packed into the fewest racks/switches (as in Tiresias' and Gandiva's locality goals)",
    [](const PlacerParams&) { return std::make_unique<Topology>(); });

}  // namespace
}  // namespace mlsys::sched
