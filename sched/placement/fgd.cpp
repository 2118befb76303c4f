// Fragmentation Gradient Descent (Weng et al., "Beware of Fragmentation", ATC'23): place a task
// on the node/GPUs that increases the expected fragmentation of the cluster the least, where a
// node's fragmentation is the GPU share that the expected workload (the trace's mix of GPU, CPU
// and memory demands) could not use there (fragmentation.hpp). Designed for fractional GPUs
// (openb); whole-GPU jobs larger than a node fall back to consolidation.
//
// A node's fragmentation depends only on its free resources, so values are memoised by node state
// (sorted GPU shares, CPU, memory, GPU type): a cluster of identical nodes that fills up one pod at
// a time evaluates each state once instead of once per node and pod. Results are unchanged.
#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sched/api/placer.hpp"
#include "sched/placement/fragmentation.hpp"
#include "sched/placement/placement_util.hpp"

namespace mlsys::sched {
namespace {

constexpr int kMemoGpus = 8;          // nodes with more GPUs are evaluated directly
constexpr size_t kMemoLimit = 1 << 18;  // entries kept before the memo starts over

struct StateKey {
  std::array<int16_t, kMemoGpus> free{};  // descending
  int64_t cpu = 0, memory = 0;
  int32_t type = 0, gpus = 0;
  bool operator==(const StateKey&) const = default;
};

struct StateHash {
  static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
  size_t operator()(const StateKey& k) const {
    uint64_t lo = 0, hi = 0;
    for (int i = 0; i < 4; ++i) lo = lo << 16 | static_cast<uint16_t>(k.free[i]);
    for (int i = 4; i < 8; ++i) hi = hi << 16 | static_cast<uint16_t>(k.free[i]);
    uint64_t h = mix(lo, hi);
    h = mix(h, static_cast<uint64_t>(k.cpu));
    h = mix(h, static_cast<uint64_t>(k.memory));
    h = mix(h, (static_cast<uint64_t>(static_cast<uint32_t>(k.type)) << 32) | static_cast<uint32_t>(k.gpus));
    return static_cast<size_t>(h);
  }
};

class Fgd final : public Placer {
 public:
  explicit Fgd(std::vector<DemandClass> workload) : workload_(std::move(workload)) {
    if (workload_.empty()) workload_.push_back(DemandClass{1, 1000, 1});
  }
  bool place(const JobInfo& job, const ClusterState& c, Allocation& out) override {
    if (!single_node_job(job, c)) return consolidate_multi_node(job, c, out);
    if (job.num_gpus > 0 && job.gpu_milli >= 1000 && c.total_free_gpus() < job.num_gpus) return false;
    const size_t width = static_cast<size_t>(c.max_node_gpus()) + 1;
    if (free_.size() < width) {
      free_.resize(width);
      after_.resize(width);
    }
    int best_node = -1;
    double best_delta = 0;
    Allocation best, cand;
    for (int n = 0; n < c.num_nodes(); ++n) {
      if (!c.can_host(n, job, job.num_gpus)) continue;
      const NodeFree now = node_free(c, n, free_.data());
      const double before = fragmentation(now);
      NodeFree next = now;
      next.free = after_.data();
      if (next.cpu >= 0) next.cpu -= job.cpu_milli;
      if (next.memory >= 0) next.memory -= job.memory_mib;
      const int gpus = now.gpus;
      // Candidate GPU choices: for fractional jobs every GPU that fits (GPUs with equal free
      // shares are interchangeable, so only the first of each); for whole GPUs the default pick.
      const bool fractional = job.num_gpus == 1 && job.gpu_milli < 1000;
      const int choices = fractional ? gpus : 1;
      for (int k = 0; k < choices; ++k) {
        cand.clear();
        if (fractional) {
          if (free_[k] < job.gpu_milli) continue;
          bool seen = false;
          for (int g = 0; g < k && !seen; ++g) seen = free_[g] == free_[k];
          if (seen) continue;
          cand.push_back(GpuSlice{n, k, job.gpu_milli});
        } else {
          c.pick_gpus(n, job, job.num_gpus, cand);
        }
        std::copy(free_.begin(), free_.begin() + gpus, after_.begin());
        for (const auto& s : cand)
          if (s.gpu >= 0) after_[s.gpu] -= s.milli;
        const double delta = fragmentation(next) - before;
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
  double fragmentation(const NodeFree& f) {
    if (f.gpus > kMemoGpus) return node_fragmentation(f, workload_);
    StateKey k;
    for (int g = 0; g < f.gpus; ++g) k.free[g] = static_cast<int16_t>(f.free[g]);
    std::sort(k.free.begin(), k.free.begin() + f.gpus, [](int16_t a, int16_t b) { return a > b; });
    k.cpu = f.cpu;
    k.memory = f.memory;
    k.type = f.gpu_type;
    k.gpus = f.gpus;
    auto it = memo_.find(k);
    if (it != memo_.end()) return it->second;
    if (memo_.size() >= kMemoLimit) memo_.clear();
    const double v = node_fragmentation(f, workload_);
    memo_.emplace(k, v);
    return v;
  }

  std::vector<DemandClass> workload_;
  std::vector<int> free_, after_;
  std::unordered_map<StateKey, double, StateHash> memo_;
};

const bool registered = placer_registry().add(
    "fgd",
    "Fragmentation-aware (FGD): least increase of expected unusable GPU share, for fractional GPUs (Weng et al., ATC'23)",
    [](const PlacerParams& p) { return std::make_unique<Fgd>(p.workload); });

}  // namespace
}  // namespace mlsys::sched
