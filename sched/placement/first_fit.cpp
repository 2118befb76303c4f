// First fit: the lowest-index node that can hold the job; jobs larger than a node take free GPUs
// from nodes in index order, so they may spread (the baseline that shows what consolidation buys).
#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class FirstFit final : public Placer {
 public:
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (single_node_job(job, c)) {
      int n = first_fit_node(job, c, job.num_gpus);
      if (n < 0) return false;
      c.pick_gpus(n, job, job.num_gpus, out);
      return true;
    }
    if (c.total_free_gpus() < job.num_gpus) return false;
    int left = job.num_gpus;
    for (int n = 0; n < c.num_nodes() && left > 0; ++n) {
      int take = c.free_gpus(n) < left ? c.free_gpus(n) : left;
      if (take > 0 && c.can_host(n, job, take)) {
        c.pick_gpus(n, job, take, out);
        left -= take;
      }
    }
    if (left > 0) out.clear();
    return left == 0;
  }
};

const bool registered = placer_registry().add(
    "first_fit", "First fit in node order; large jobs spread over free GPUs in node order (classic bin packing baseline)",
    [](const PlacerParams&) { return std::make_unique<FirstFit>(); });

}  // namespace
}  // namespace mlsys::sched
