#pragma once
// Small clusters for the engine's hand-computed tests.
#include <string>
#include <vector>

#include "sched/api/cluster_state.hpp"

namespace mlsys::test {

// n nodes x `gpus` V100s, `per_rack` nodes per rack.
inline sched::ClusterState nodes(int n, int gpus, int per_rack = 8) {
  std::vector<sched::NodeSpec> ns(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    ns[i].name = "n" + std::to_string(i);
    ns[i].gpus = gpus;
    ns[i].rack = i / per_rack;
  }
  return sched::ClusterState(ns, {"v100"});
}

}  // namespace mlsys::test
