#pragma once
// Synthetic graphs for accuracy (SBM with class-correlated features) and scale (R-MAT) studies.
// Their parameters are config blocks nested into the graph options (gnn.graph.nodes, ...).
#include <cstdint>

#include "core/config/schema.hpp"
#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

// Defaults = the quickstart demo's graph.
struct SbmParams {
  int64_t nodes = 3000;
  int32_t classes = 6;
  double avg_degree = 12;   // directed entries per node after symmetrizing
  double homophily = 0.6;   // fraction of edges drawn inside the source node's class
  int64_t features = 32;
  double feature_signal = 0.15;  // class-mean scale relative to unit Gaussian noise
  double train_fraction = 0.1, val_fraction = 0.2;  // rest is test
  // Fraction of nodes whose observed label is replaced by another class drawn uniformly; edges and
  // features follow the true class, so no model beats 1 - label_noise on average (real graphs
  // such as Reddit top out at 95-97%, a clean SBM at 100%).
  double label_noise = 0;
};
Graph generate_sbm(const SbmParams& p, uint64_t seed);
// graph.nodes ... graph.val_fraction (presets reuse the split fractions, rmat features and classes).
const config::Section<SbmParams>& sbm_section();

struct RmatParams {
  int scale = 14;       // 2^scale nodes
  int64_t edges = 0;    // generated (before symmetrizing); 0 -> 16 per node
  double a = 0.57, b = 0.19, c = 0.19;
  int64_t features = 128;
  int32_t classes = 16;
  double train_fraction = 0.6, val_fraction = 0.2;
};
// Labels follow a feature projection (so the task is learnable) and a random split.
Graph generate_rmat(const RmatParams& p, uint64_t seed);
// graph.rmat_scale, graph.rmat_edges (the rest of RmatParams is not a config key).
const config::Section<RmatParams>& rmat_section();

// Split values for n nodes: train with probability `train`, val with `val`, test otherwise, each
// node by its own hash of `seed` (independent of order and thread count). Sources without a split
// (generators, .npz files without masks) use it.
std::vector<uint8_t> random_split(int64_t n, double train, double val, uint64_t seed);

}  // namespace mlsys::gnn
