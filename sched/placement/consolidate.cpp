// Consolidated best fit (Helios "consolidate"): a job that fits on one node goes to the node with
// the fewest free GPUs that can hold it; larger jobs take whole free nodes.
#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class Consolidate final : public Placer {
 public:
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (single_node_job(job, c)) return best_fit_node(job, c, out);
    return consolidate_multi_node(job, c, out);
  }
};

const bool registered = placer_registry().add(
    "consolidate",
    "Consolidated best fit: fewest-free node that fits, whole free nodes for large jobs (Helios, Hu et al., SC'21)",
    [](const PlacerParams&) { return std::make_unique<Consolidate>(); });

}  // namespace
}  // namespace mlsys::sched
