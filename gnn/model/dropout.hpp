#pragma once
// Dropout on a layer's input, shared by every architecture.
//
// Keyed dropout (kernels::dropout_keyed): the mask is a function of (seed, global id, column) and of
// the input, the same whichever worker holds a node, so nothing is stored: the dropped input is
// formed a block of rows at a time inside the products that use it (drop(H) W, drop(H)^T G, and
// (G W^T) * keep for the input gradient) and never held whole. The same code runs on every device
// (the kernel dispatch picks the backend). A sparse input (env.sparse_x, layer 0) keeps its CSR and
// drops nonzeros (kernels::dropout_keyed_csr): values_d = values * keep / (1 - p).
#include <cstdint>

#include "core/tensor/csr.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/model/layer.hpp"

namespace mlsys::gnn {

struct DropIn {
  Tensor in;   // the undropped input
  Tensor ids;  // global ids of the local rows (LocalGraph::global_ids, on the device)
  float p = 0;
  uint64_t seed = 0;
  bool active = false;
  Csr sx;  // sparse input (sx.rows == 0: dense); its dropped values are formed per pass (below)

  // Starts layer `slot`'s dropout of h (or, when h is undefined, of env.sparse_x) with probability prob.
  void begin(ForwardEnv& env, const Tensor& h, float prob, int slot);
  // The dense dropped input whole (a new tensor while dropout is active).
  Tensor dropped(ForwardEnv& env) const;
  // out = drop(in) w + beta * out, for the first out.rows() rows of the input (all of them, or the
  // owned prefix of a local input; a prefix takes beta = 0).
  void matmul(ForwardEnv& env, const Tensor& w, const Tensor& out, float beta = 0.0f) const;
  // w.grad += drop(in)^T g over the first g.rows() rows; with need_input_grad returns the input
  // gradient (g w^T) * keep / (1 - p).
  Tensor backward(ForwardEnv& env, const Tensor& g, nn::Parameter& w, bool need_input_grad) const;
  // g *= keep / (1 - p) in place (g: the gradient w.r.t. the dropped input).
  void back_inplace(ForwardEnv& env, const Tensor& g) const;
  // Ends the forward pass's use of a sparse input's dropped values (one per nonzero, the input's
  // size): kept from forward to backward they were the largest tensor held across the layers'
  // passes; the backward forms them again (the mask is keyed, so the same values).
  void release_dropped() { dropped_values_ = Tensor(); }
  // Rows of the layer input (dense or sparse).
  int64_t rows() const { return sx.rows ? sx.rows : in.rows(); }

 private:
  // out = src * keep / (1 - p) for input rows [r0, r1) (src, out: that many rows; may alias).
  void drop_rows(ForwardEnv& env, int64_t r0, int64_t r1, const Tensor& src, const Tensor& out) const;
  // The sparse input with its dropped values, formed at the first use of a pass.
  Csr dropped_sparse(ForwardEnv& env) const;
  mutable Tensor dropped_values_;
};

}  // namespace mlsys::gnn
