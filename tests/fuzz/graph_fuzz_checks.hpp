#pragma once
// What a graph loader's fuzz target demands of a graph that loaded: CSR bounds and labels inside
// the classes (a violation traps, which libFuzzer and the ctest replays report).
#include <algorithm>
#include <cstdint>

#include "gnn/graph/graph.hpp"

namespace mlsys::fuzz {

inline void check_loaded_graph(const mlsys::gnn::Graph& g) {
  if (g.indptr.size() != static_cast<size_t>(g.num_nodes + 1)) __builtin_trap();
  for (int32_t v : g.indices)
    if (v < 0 || v >= g.num_nodes) __builtin_trap();
  for (int32_t y : g.labels)
    if (y < -1 || y >= std::max(g.num_classes, 1)) __builtin_trap();
}

}  // namespace mlsys::fuzz
