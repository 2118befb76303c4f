#pragma once
// Scores of one evaluation pass: accuracy (single-label) or F1-micro over the (node, class) pairs
// (multi-label) on the train, val and test rows of every worker.
#include <array>

#include "core/comm/communicator.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/graph/graph.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/train/inputs.hpp"

namespace mlsys::gnn {

// `logits`: this worker's [owned, classes]. -1 for a split without labeled rows. Collective.
std::array<double, 3> split_scores(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                                   const WorkerInputs& in, const Tensor& logits);

}  // namespace mlsys::gnn
