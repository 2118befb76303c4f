#pragma once
// Synthetic graphs for accuracy (SBM with class-correlated features) and scale (R-MAT) studies.
#include <cstdint>

#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

struct SbmParams {
  int64_t nodes = 2000;
  int32_t classes = 8;
  double avg_degree = 10;   // directed entries per node after symmetrizing
  double homophily = 0.8;   // fraction of edges drawn inside the source node's class
  int64_t features = 32;
  double feature_signal = 0.5;  // class-mean scale relative to unit Gaussian noise
  double train_fraction = 0.1, val_fraction = 0.2;  // rest is test
};
Graph generate_sbm(const SbmParams& p, uint64_t seed);

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

}  // namespace mlsys::gnn
