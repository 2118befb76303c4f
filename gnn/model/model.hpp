#pragma once
// A stack of graph layers of one registered architecture (architecture.hpp: gcn, sage, gat), with
// LayerNorm, residual connections and the activation between hidden layers, explicit forward and
// backward. Every layer's neighbour access goes through the Exchanger (gnn/halo).
#include <memory>
#include <string>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/layer.hpp"
#include "gnn/model/model_options.hpp"

namespace mlsys::gnn {

class Model {
 public:
  // in_dim: feature width; out_dim: classes. With precomputes_first(o) the input is A_hat X.
  Model(DeviceContext& ctx, const ModelOptions& o, int in_dim, int out_dim, uint64_t seed);
  Tensor forward(ForwardEnv& env, const Tensor& x);    // logits [owned, out_dim]
  // Accumulates every parameter's gradient. A gradient that does not exist (drop_grads) is created,
  // zeroed, at its first write (grad_of): by then the layers above have released their activations
  // and the layer its output gradient, so gradients never add to the forward pass's peak.
  void backward(ForwardEnv& env, const Tensor& grad_logits);
  std::vector<nn::Parameter*> params();  // every layer's, then the norms'
  std::vector<nn::Parameter*> layer_params(int layer);  // graph layer `layer`'s
  // Releases every gradient (after the optimizer step, and before a backward that must not add to
  // the previous one).
  void drop_grads();
  void clear();

 private:
  ModelOptions o_;
  std::unique_ptr<Architecture> arch_;
  bool elu_;  // the hidden activation is ELU (else ReLU)
  std::vector<std::unique_ptr<Layer>> layers_;
  struct Hidden {
    bool skip = false;  // a residual connection adds this layer's input to its output
    Tensor pre, normed, mean, rstd, act;
    nn::Parameter* gamma = nullptr;
    nn::Parameter* beta = nullptr;
  };
  std::vector<Hidden> hidden_;
  std::vector<nn::Parameter> norms_;
};

}  // namespace mlsys::gnn
