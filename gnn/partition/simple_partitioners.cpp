// Baseline partitioners: random (balanced shuffle) and contiguous id ranges.
#include <algorithm>
#include <numeric>

#include "core/util/random.hpp"
#include "gnn/partition/partitioner.hpp"

namespace mlsys::gnn {
namespace {

struct RandomPartitioner final : Partitioner {
  std::vector<int32_t> partition(const Graph& g, const PartitionParams& p) override {
    std::vector<int32_t> order(static_cast<size_t>(g.num_nodes));
    std::iota(order.begin(), order.end(), 0);
    Rng(derive_seed(p.seed, 0x9a97u)).shuffle(order);
    std::vector<int32_t> a(order.size());
    for (size_t i = 0; i < order.size(); ++i) a[order[i]] = static_cast<int32_t>(i % static_cast<size_t>(p.parts));
    return a;
  }
};

struct ContiguousPartitioner final : Partitioner {
  std::vector<int32_t> partition(const Graph& g, const PartitionParams& p) override {
    std::vector<int32_t> a(static_cast<size_t>(g.num_nodes));
    for (int64_t v = 0; v < g.num_nodes; ++v) a[v] = static_cast<int32_t>(v * p.parts / g.num_nodes);
    return a;
  }
};

const bool r1 = partitioner_registry().add("random", "Balanced random assignment (seeded shuffle)",
                                           [] { return std::make_unique<RandomPartitioner>(); });
const bool r2 = partitioner_registry().add("contiguous", "Equal ranges of node ids",
                                           [] { return std::make_unique<ContiguousPartitioner>(); });

}  // namespace
}  // namespace mlsys::gnn
