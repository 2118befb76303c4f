// Random placement (seeded): a uniformly chosen node among those that can hold the job; larger
// jobs take randomly chosen whole free nodes plus one random node for the remainder.

#include "core/util/random.hpp"
#include "sched/api/placer.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

class RandomPlacer final : public Placer {
 public:
  explicit RandomPlacer(uint64_t seed) : rng_(seed) {}
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (single_node_job(job, c)) {
      if (job.num_gpus > 0 && job.gpu_milli >= 1000 && c.total_free_gpus() < job.num_gpus) return false;
      int n = pick(c, [&](int i) { return c.can_host(i, job, job.num_gpus); });
      if (n < 0) return false;
      c.pick_gpus(n, job, job.num_gpus, out);
      return true;
    }
    const int size = c.max_node_gpus();
    if (c.total_free_gpus() < job.num_gpus) return false;
    int full = job.num_gpus / size, rest = job.num_gpus % size;
    std::vector<char> taken(static_cast<size_t>(c.num_nodes()), 0);
    for (int k = 0; k < full; ++k) {
      int n = pick(c, [&](int i) { return !taken[i] && c.free_gpus(i) == size && c.can_host(i, job, size); });
      if (n < 0) {
        out.clear();
        return false;
      }
      taken[n] = 1;
      c.pick_gpus(n, job, size, out);
    }
    if (rest > 0) {
      int n = pick(c, [&](int i) { return !taken[i] && c.can_host(i, job, rest); });
      if (n < 0) {
        out.clear();
        return false;
      }
      c.pick_gpus(n, job, rest, out);
    }
    return true;
  }

 private:
  // Reservoir sampling over the candidates: one pass, uniform, deterministic for a seed.
  template <class Pred>
  int pick(const ClusterState& c, Pred&& ok) {
    int chosen = -1, seen = 0;
    for (int i = 0; i < c.num_nodes(); ++i) {
      if (!ok(i)) continue;
      ++seen;
      if (rng_.below(static_cast<uint64_t>(seen)) == 0) chosen = i;
    }
    return chosen;
  }
  Rng rng_;
};

const bool registered = placer_registry().add(
    "random", "Uniformly random feasible node(s), seeded (the usual lower baseline)",
    [](const PlacerParams& p) { return std::make_unique<RandomPlacer>(p.seed); });

}  // namespace
}  // namespace mlsys::sched
