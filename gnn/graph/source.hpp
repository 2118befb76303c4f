#pragma once
// Where a run's graph comes from: a registry of named sources (file, sbm, rmat, presets).
#include <memory>

#include "core/registry/registry.hpp"
#include "gnn/graph/graph.hpp"
#include "gnn/graph/graph_options.hpp"

namespace mlsys::gnn {

class GraphSource {
 public:
  virtual ~GraphSource() = default;
  virtual Graph load(const GraphOptions& o, uint64_t seed) = 0;
};

using GraphSourceRegistry = Registry<GraphSource>;
GraphSourceRegistry& graph_source_registry();

// Cache folder for converted graphs and partitions (gnn.graph.cache_dir, $MLSYS_CACHE_DIR, ~/.cache/mlsys).
std::string cache_root(const GraphOptions& o);

}  // namespace mlsys::gnn
