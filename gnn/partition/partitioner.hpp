#pragma once
// Node partitioners (registry) + an on-disk cache keyed by graph fingerprint and parameters.
#include <cstdint>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

struct PartitionParams {
  int parts = 1;
  uint64_t seed = 1;
  std::string objective = "volume";  // metis: volume | cut
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  // Owner (0..parts-1) of every node. Every part must be non-empty when nodes >= parts.
  virtual std::vector<int32_t> partition(const Graph& g, const PartitionParams& p) = 0;
};

using PartitionerRegistry = Registry<Partitioner>;
PartitionerRegistry& partitioner_registry();

// Runs `name`, or reads the result cached under `cache_dir` (empty = no caching).
// Sets `*from_cache` when the cache answered.
std::vector<int32_t> partition_cached(const Graph& g, const std::string& name, const PartitionParams& p,
                                      const std::string& cache_dir, bool* from_cache = nullptr);

}  // namespace mlsys::gnn
