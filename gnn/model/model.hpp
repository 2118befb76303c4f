#pragma once
// GCN / GraphSAGE / GAT stacks with explicit forward and backward, written against the core
// kernels so the same code runs on cpu and cuda. Every layer's neighbour access goes through the
// Exchanger, which is where distribution, quantization and staleness live.
#include <memory>
#include <string>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/model/model_options.hpp"
#include "gnn/train/exchanger.hpp"

namespace mlsys::gnn {

struct Param {
  std::string name;
  Tensor value, grad, m, v;
  bool decay = true;  // weight decay applies (weights yes, biases and norms no)
  int layer = -1;     // index of the graph layer owning it (-1: norms)
};

struct ForwardEnv {
  DeviceContext& ctx;
  Exchanger& ex;
  const LocalGraph& lg;
  bool train = true;
  bool exact = false;  // evaluation: fp32 synchronous exchange
  uint64_t dropout_seed = 0;
  // Sparse raw features (bag-of-words inputs such as Cora's): layer 0 multiplies this CSR
  // [owned, F] instead of a dense input, and dropout drops its nonzeros.
  const Csr* sparse_x = nullptr;
};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual Tensor forward(ForwardEnv& env, const Tensor& h) = 0;
  // Returns the gradient w.r.t. h (undefined when need_input_grad is false). Accumulates param grads.
  virtual Tensor backward(ForwardEnv& env, const Tensor& grad_out, bool need_input_grad) = 0;
  // Drops what forward kept for backward (before an evaluation pass, to lower peak memory).
  virtual void clear() {}
  std::vector<Param*> params() {
    std::vector<Param*> out;
    for (auto& p : params_) out.push_back(&p);
    return out;
  }

 protected:
  std::vector<Param> params_;
};

class Model {
 public:
  // in_dim: feature width; out_dim: classes. With precomputes_first(o) the input is A_hat X.
  Model(DeviceContext& ctx, const ModelOptions& o, int in_dim, int out_dim, uint64_t seed);
  Tensor forward(ForwardEnv& env, const Tensor& x);    // logits [owned, out_dim]
  void backward(ForwardEnv& env, const Tensor& grad_logits);
  std::vector<Param*> params();
  void zero_grad(DeviceContext& ctx);
  void clear();

 private:
  ModelOptions o_;
  std::vector<std::unique_ptr<Layer>> layers_;
  struct Hidden {
    bool skip = false;  // a residual connection adds this layer's input to its output
    Tensor pre, normed, mean, rstd, act;
    Param* gamma = nullptr;
    Param* beta = nullptr;
  };
  std::vector<Hidden> hidden_;
  std::vector<Param> norms_;
};

}  // namespace mlsys::gnn
