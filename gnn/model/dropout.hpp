#pragma once
// Dropout on a layer's input, shared by every architecture.
//
// On the host nothing is stored: the mask is a function of (seed, global id, column) and of the
// input, so the dropped input is formed a block of rows at a time inside the products that use it
// (drop(H) W, drop(H)^T G, and (G W^T) * keep for the input gradient, where a block's keep is
// "dropped value != 0") and never held whole. On cuda the dropped input and the u8 mask are kept
// (the device kernel's stream). A sparse input (env.sparse_x, layer 0) keeps its CSR and drops
// nonzeros: values_d = values * keep / (1 - p).
#include <cstdint>

#include "core/tensor/csr.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/model/layer.hpp"

namespace mlsys::gnn {

struct DropIn {
  Tensor in, hd, mask;  // in: the undropped input; hd, mask: kept dropped input and mask (cuda)
  float p = 0;
  uint64_t seed = 0;
  const int32_t* gids = nullptr;
  bool active = false;
  Csr sx;  // sparse input with dropped values (sx.rows == 0: dense)

  // Starts layer `slot`'s dropout of h (or, when h is undefined, of env.sparse_x) with probability prob.
  void begin(ForwardEnv& env, const Tensor& h, float prob, int slot);
  bool regenerated() const { return active && !hd.defined(); }
  // The dense dropped input whole (a new tensor when regenerated).
  Tensor dropped(ForwardEnv& env) const;
  // out = drop(in) w + beta * out, for the first out.rows() rows of the input (all of them, or the
  // owned prefix of a local input; a prefix takes beta = 0).
  void matmul(ForwardEnv& env, const Tensor& w, const Tensor& out, float beta = 0.0f) const;
  // w.grad += drop(in)^T g over the first g.rows() rows; with need_input_grad returns the input
  // gradient (g w^T) * keep / (1 - p).
  Tensor backward(ForwardEnv& env, const Tensor& g, nn::Parameter& w, bool need_input_grad) const;
  // g *= keep / (1 - p) in place (g: the gradient w.r.t. the dropped input).
  void back_inplace(ForwardEnv& env, const Tensor& g) const;
  // Rows of the layer input (dense or sparse).
  int64_t rows() const { return sx.rows ? sx.rows : in.rows(); }
};

}  // namespace mlsys::gnn
