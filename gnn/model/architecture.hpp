#pragma once
// GNN architectures: a table of named architectures (gnn.model.arch's choices, with descriptions
// citing their papers), each registered by one file under gnn/model/arch/:
//
//   static const bool registered = architecture_registry().add("gcn", "Graph convolutional network (Kipf & Welling, ICLR 2017)", [] {
//     return std::make_unique<GcnArchitecture>();
//   });
//
// What differs between architectures beyond their layers is a trait of the entry, read by the
// model, the local graph and the trainer: the adjacency the layers aggregate over, whether layer 0
// can read A_hat X computed once, multi-head hidden layers, sparse inputs, the hidden activation.
#include <cstdint>
#include <memory>
#include <string>

#include "core/registry/registry.hpp"
#include "gnn/model/layer.hpp"
#include "gnn/model/local_graph.hpp"

namespace mlsys::gnn {

enum class Activation { relu, elu };

// One layer to build.
struct LayerSpec {
  int slot = 0;          // the layer's index, which is also its exchange slot
  int in = 0, out = 0;   // input width; output width per head
  int heads = 1;         // gnn.model.heads for the hidden layers of a multi-head architecture, else 1
  float dropout = 0;     // on the layer's input
  bool precomputed = false;      // the input already holds A_hat X (layer 0 needs no exchange)
  bool aggregate_first = false;  // gnn.model.aggregate_first
  uint64_t seed = 0;     // initialization
};

class Architecture {
 public:
  virtual ~Architecture() = default;
  virtual Adjacency adjacency() const = 0;
  // Layer 0 can read A_hat X aggregated once before training (gnn.model.precompute_first).
  virtual bool precomputable_first() const { return false; }
  // Hidden layers have gnn.model.heads heads whose outputs are concatenated.
  virtual bool multi_head() const { return false; }
  // Layer 0 can multiply a sparse feature matrix (bag-of-words inputs) instead of a dense one.
  virtual bool sparse_input() const { return true; }
  virtual Activation activation() const { return Activation::relu; }
  virtual std::unique_ptr<Layer> make_layer(DeviceContext& ctx, const LayerSpec& spec) const = 0;
};

using ArchitectureRegistry = Registry<Architecture>;
ArchitectureRegistry& architecture_registry();
// The architecture `name` (ConfigError naming the valid ones when unknown).
std::unique_ptr<Architecture> architecture(const std::string& name);

}  // namespace mlsys::gnn
