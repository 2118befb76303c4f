// Fragmentation Gradient Descent (Weng et al., "Beware of Fragmentation", ATC'23): place a task
// on the node/GPUs that increases the expected fragmentation of the cluster the least, where a
// node's fragmentation is the GPU share that the expected workload (the trace's mix of demands)
// could not use. Designed for fractional GPUs (openb); whole-GPU jobs larger than a node fall back
// to consolidation.
#include <vector>

#include "sched/api/placer.hpp"
#include "sched/placement/fragmentation.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class Fgd final : public Placer {
 public:
  explicit Fgd(std::vector<DemandClass> workload) : workload_(std::move(workload)) {
    if (workload_.empty()) workload_.push_back(DemandClass{1, 1000, 1});
  }
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (!single_node_job(job, c)) return consolidate_multi_node(job, c, out);
    if (job.num_gpus > 0 && job.gpu_milli >= 1000 && c.total_free_gpus() < job.num_gpus) return false;
    int best_node = -1;
    double best_delta = 0;
    Allocation best, cand;
    std::vector<int> free(64);
    for (int n = 0; n < c.num_nodes(); ++n) {
      if (!c.can_host(n, job, job.num_gpus)) continue;
      const int gpus = c.node(n).gpus;
      for (int g = 0; g < gpus; ++g) free[g] = c.gpu_free_milli(n, g);
      double before = node_fragmentation(free.data(), gpus, workload_);
      // Candidate GPU choices: for fractional jobs every GPU that fits; for whole GPUs the
      // default pick (free GPUs are interchangeable for fragmentation).
      const int choices = (job.num_gpus == 1 && job.gpu_milli < 1000) ? gpus : 1;
      for (int k = 0; k < choices; ++k) {
        cand.clear();
        if (choices > 1) {
          if (free[k] < job.gpu_milli) continue;
          cand.push_back(GpuSlice{n, k, job.gpu_milli});
        } else {
          c.pick_gpus(n, job, job.num_gpus, cand);
        }
        for (const auto& s : cand)
          if (s.gpu >= 0) free[s.gpu] -= s.milli;
        double delta = node_fragmentation(free.data(), gpus, workload_) - before;
        for (const auto& s : cand)
          if (s.gpu >= 0) free[s.gpu] += s.milli;
        if (best_node < 0 || delta < best_delta - 1e-9) {
          best_node = n;
          best_delta = delta;
          best = cand;
        }
      }
    }
    if (best_node < 0) return false;
    out = best;
    return true;
  }

 private:
  std::vector<DemandClass> workload_;
};

const bool registered = placer_registry().add(
    "fgd",
    "Fragmentation-aware (FGD): least increase of expected unusable GPU share, for fractional GPUs (Weng et al., ATC'23)",
    [](const PlacerParams& p) { return std::make_unique<Fgd>(p.workload); });

}  // namespace
}  // namespace mlsys::sched
