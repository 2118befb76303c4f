#pragma once
// What one worker trains on: its owned rows' features (dense, sparse, or aggregated once), with the
// halo rows' features after them when the input halo is cached, labels and split masks, and the
// global size of every split.
#include <array>
#include <cstdint>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/graph/graph.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/model/local_graph.hpp"

namespace mlsys::gnn {

struct WorkerInputs {
  Tensor x;        // dense input [rows, F]; undefined when x_sparse holds it
  Csr x_sparse;    // sparse or mostly-zero raw features as a CSR [rows, F] (rows == 0: dense input)
  // rows = owned + halo (the input halo fetched once, gnn.halo.cache_input): layer 0 exchanges
  // nothing. Otherwise rows = owned.
  bool local_input = false;
  Tensor labels;   // i32 [owned]
  std::array<std::vector<uint8_t>, 3> mask;  // train / val / test membership of every owned row
  std::array<Tensor, 3> mask_t;              // the same on the device
  std::array<int64_t, 3> local{}, total{};   // labeled rows per split: this worker's, all workers'
  // Multi-label graphs: one 0/1 label and one train-mask entry per (owned node, class) pair.
  bool multi = false;
  Tensor pair_labels, pair_train, pair_select;
};

struct InputSettings {
  bool normalize = false;   // gnn.graph.normalize_features
  bool precompute = false;  // layer 0 reads A_hat X (precomputes_first)
  bool sparse_ok = true;    // the architecture's layer 0 takes a sparse input
  bool cache_input = true;  // gnn.halo.cache_input: fetch the input halo once and keep it
  bool alone = false;       // the only worker in this process: mapped feature pages may be released
};

// Collective: every rank calls it (the input halo is fetched and the split totals all-reduced). InputError when no node of
// the graph is labeled for training.
WorkerInputs build_inputs(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                          const LocalGraph& lg, const InputSettings& how);

}  // namespace mlsys::gnn
