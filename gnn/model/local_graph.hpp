#pragma once
// A worker's adjacency matrices on its device, normalized with GLOBAL degrees so that P workers
// compute exactly what one worker computes on the whole graph.
#include <string>
#include <vector>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// The matrix an architecture's layers aggregate over (rows: owned nodes, columns: local ids).
enum class Adjacency {
  gcn,        // D^-1/2 (A + I) D^-1/2
  mean,       // 1/deg(u) on neighbours, no self loop (GraphSAGE mean)
  attention,  // structure of A + I, no values (attention scores fill them)
};

struct LocalGraph {
  int64_t owned = 0, local = 0;
  Csr adj;  // the one adjacency the architecture needs
  std::vector<int32_t> global_ids;  // of the local rows, owned then halo (dropout streams are keyed by global id)
};

LocalGraph build_local_graph(DeviceContext& ctx, const HaloPlan& plan, Adjacency which);

}  // namespace mlsys::gnn
