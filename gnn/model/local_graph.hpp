#pragma once
// A worker's adjacency matrices on its device, normalized with GLOBAL degrees so that P workers
// compute exactly what one worker computes on the whole graph.
#include <vector>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "gnn/dist/halo_plan.hpp"

namespace mlsys::gnn {

struct LocalGraph {
  int64_t owned = 0, local = 0;
  Csr gcn;   // D^-1/2 (A + I) D^-1/2 rows of owned nodes, columns local ids
  Csr mean;  // 1/deg(u) on neighbours, no self loop (GraphSAGE mean)
  Csr att;   // structure of A + I, no values (GAT)
  std::vector<int32_t> global_ids;  // of owned rows (dropout streams are keyed by global id)
};

// `which`: "gcn", "sage" or "gat" (only the matrix that model needs is built).
LocalGraph build_local_graph(DeviceContext& ctx, const HaloPlan& plan, const std::string& which);

}  // namespace mlsys::gnn
