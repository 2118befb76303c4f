// Multi-resource packing (Tetris, Grandl et al., SIGCOMM'14): among nodes that can hold the job,
// choose the one whose free (GPU, CPU, memory) vector aligns best with the job's demand vector
// (largest dot product of capacity-normalised vectors), so no single resource is stranded.
// Jobs larger than a node fall back to consolidation.
#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class Tetris final : public Placer {
 public:
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (!single_node_job(job, c)) return consolidate_multi_node(job, c, out);
    if (job.num_gpus > 0 && job.gpu_milli >= 1000 && c.total_free_gpus() < job.num_gpus) return false;
    int best = -1;
    double best_score = -1;
    for (int n = 0; n < c.num_nodes(); ++n) {
      if (!c.can_host(n, job, job.num_gpus)) continue;
      const auto& nd = c.node(n);
      double free_gpu = 0;
      for (int g = 0; g < nd.gpus; ++g) free_gpu += c.gpu_free_milli(n, g);
      double score = 0;
      if (nd.gpus > 0) score += (job.num_gpus * double(job.gpu_milli)) / (nd.gpus * 1000.0) * free_gpu / (nd.gpus * 1000.0);
      if (nd.cpu_milli > 0) score += double(job.cpu_milli) / nd.cpu_milli * double(c.free_cpu(n)) / nd.cpu_milli;
      if (nd.memory_mib > 0) score += double(job.memory_mib) / nd.memory_mib * double(c.free_memory(n)) / nd.memory_mib;
      if (score > best_score + 1e-12) {
        best = n;
        best_score = score;
      }
    }
    if (best < 0) return false;
    c.pick_gpus(best, job, job.num_gpus, out);
    return true;
  }
};

const bool registered = placer_registry().add(
    "tetris", "Multi-resource alignment of GPU/CPU/memory demand and free capacity (Tetris, Grandl et al., SIGCOMM'14)",
    [](const PlacerParams&) { return std::make_unique<Tetris>(); });

}  // namespace
}  // namespace mlsys::sched
