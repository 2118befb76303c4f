#pragma once
// A worker's adjacency matrices on its device, normalized with GLOBAL degrees so that P workers
// compute exactly what one worker computes on the whole graph.
#include <string>
#include <vector>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
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
  // i32 [local], on the worker's device: the global id of each local row, owned then halo (the
  // keyed dropout's row ids: a node's mask follows its global id, not the worker holding it).
  Tensor global_ids;
};

LocalGraph build_local_graph(DeviceContext& ctx, const HaloPlan& plan, Adjacency which);

}  // namespace mlsys::gnn
