#pragma once
// What a graph layer is: explicit forward and backward against the core kernels (so the same code
// runs on cpu and cuda), with every neighbour access going through the Exchanger, which is where
// distribution, quantization and staleness live. Architectures (architecture.hpp) make them.
#include <memory>
#include <string>
#include <vector>

#include "core/nn/module.hpp"
#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/halo/exchanger.hpp"

namespace mlsys::gnn {

struct ForwardEnv {
  DeviceContext& ctx;
  Exchanger& ex;
  const LocalGraph& lg;
  bool train = true;
  bool exact = false;  // evaluation: fp32 synchronous exchange
  uint64_t dropout_seed = 0;
  // Sparse raw features (bag-of-words inputs such as Cora's): layer 0 multiplies this CSR
  // [rows, F] instead of a dense input, and dropout drops its nonzeros.
  const Csr* sparse_x = nullptr;
  // Layer 0's input holds the owned rows and then the halo rows (the input halo fetched once):
  // layer 0 computes its halo rows itself and exchanges nothing, forward or backward.
  bool local_input = false;
};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual Tensor forward(ForwardEnv& env, const Tensor& h) = 0;
  // Returns the gradient w.r.t. h (undefined when need_input_grad is false). Accumulates param grads
  // (grad_of). grad_out is the layer's: it may release it once used, before its own allocations.
  virtual Tensor backward(ForwardEnv& env, Tensor grad_out, bool need_input_grad) = 0;
  // Drops what forward kept for backward (before an evaluation pass, to lower peak memory).
  virtual void clear() {}
  std::vector<nn::Parameter*> params() {
    std::vector<nn::Parameter*> out;
    for (auto& p : params_) out.push_back(&p);
    return out;
  }

 protected:
  std::vector<nn::Parameter> params_;
};

// A rows x cols parameter, uniform in [-bound, bound] from `seed` (zeros when bound is 0); `decay`:
// weight decay applies (weights yes, biases, attention vectors and norms no).
nn::Parameter make_param(DeviceContext& ctx, const std::string& name, int64_t rows, int64_t cols, float bound, uint64_t seed,
                 bool decay);
// Glorot/Xavier uniform bound for a fan-in x fan-out weight.
float glorot(int in, int out);

// Pieces the layers share.
// Layer `slot`'s forward exchange ([owned, F] -> [owned + halo, F]); fp32 and synchronous in
// evaluation. A layer whose input already holds the halo rows (input_is_local) passes t through.
Tensor exchange(ForwardEnv& env, int slot, const Tensor& t);
// Its backward: the halo rows' gradients of g_ext ([owned + halo, F]) go to their owners and come
// back added into the owned rows ([owned, F]). With a local input, g_ext is returned whole: the
// layer's weight gradient then takes the halo rows' share here, where the owner would have.
Tensor exchange_back(ForwardEnv& env, int slot, const Tensor& g_ext);
bool input_is_local(const ForwardEnv& env, int slot);
Tensor matmul_t(ForwardEnv& env, const Tensor& g, const Tensor& w);            // g W^T
void acc_weight_grad(ForwardEnv& env, const Tensor& x, const Tensor& g, nn::Parameter& w);  // w.grad += x^T g
// The gradient backward accumulates p's into: created (zeros) at its first write, so a gradient
// takes no memory before the step that forms it (the first layer's is the model's largest tensor).
const Tensor& grad_of(DeviceContext& ctx, nn::Parameter& p);

}  // namespace mlsys::gnn
