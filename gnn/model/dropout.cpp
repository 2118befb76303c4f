#include "gnn/model/dropout.hpp"

#include <algorithm>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

namespace {

// Rows per block of the fused dropout products: a dropped block (about 8 MiB) stays in the
// last-level cache between being formed and being multiplied.
int64_t block_rows(int64_t f) { return std::clamp<int64_t>((int64_t{1} << 21) / std::max<int64_t>(f, 1), 64, 16384); }

}  // namespace

void DropIn::begin(ForwardEnv& env, const Tensor& h, float prob, int slot) {
  *this = DropIn();
  p = prob;
  seed = derive_seed(env.dropout_seed, static_cast<uint64_t>(slot));
  ids = env.lg.global_ids;
  if (!h.defined() && env.sparse_x) {
    sx = *env.sparse_x;
    active = env.train && p > 0 && sx.nnz() > 0;
    return;
  }
  in = h;
  active = env.train && p > 0;
}

void DropIn::drop_rows(ForwardEnv& env, int64_t r0, int64_t r1, const Tensor& src, const Tensor& out) const {
  k::dropout_keyed(env.ctx, in.rows(r0, r1), src, ids.rows(r0, r1), p, seed, out);
}

Csr DropIn::dropped_sparse(ForwardEnv& env) const {
  if (!active) return sx;
  if (!dropped_values_.defined()) {
    dropped_values_ = Tensor::empty({sx.nnz()}, DType::f32, env.ctx);
    k::dropout_keyed_csr(env.ctx, sx, ids.rows(0, sx.rows), p, seed, dropped_values_);
  }
  Csr d = sx;
  d.values = dropped_values_;
  return d;
}

Tensor DropIn::dropped(ForwardEnv& env) const {
  if (!active) return in;
  Tensor t = Tensor::empty(in.shape(), DType::f32, env.ctx);
  drop_rows(env, 0, in.rows(), in, t);
  return t;
}

void DropIn::matmul(ForwardEnv& env, const Tensor& w, const Tensor& out, float beta) const {
  const int64_t n = out.rows();
  if (n < rows() && beta != 0.0f) throw Error("DropIn::matmul: a prefix of the rows takes beta = 0");
  if (sx.rows) {
    const Csr d = dropped_sparse(env);
    if (n == sx.rows) return k::spmm(env.ctx, d, w, out, Tensor(), beta);
    // The owned prefix of a local sparse input: its rows are not a matrix of their own.
    Tensor all = Tensor::empty({sx.rows, out.row_numel()}, DType::f32, env.ctx);
    k::spmm(env.ctx, d, w, all);
    out.copy_from(all.rows(0, n));
    return;
  }
  if (!active) return k::gemm(env.ctx, in.rows(0, n), false, w, false, out, 1.0f, beta);
  const int64_t f = in.row_numel(), b = block_rows(f);
  if (n == 0) return;
  Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
  for (int64_t r0 = 0; r0 < n; r0 += b) {
    const int64_t r1 = std::min(n, r0 + b);
    Tensor blk = s.rows(0, r1 - r0);
    drop_rows(env, r0, r1, in.rows(r0, r1), blk);
    k::gemm(env.ctx, blk, false, w, false, out.rows(r0, r1), 1.0f, beta);
  }
}

Tensor DropIn::backward(ForwardEnv& env, const Tensor& g, nn::Parameter& w, bool need_input_grad) const {
  const int64_t n = g.rows();
  if (sx.rows) {
    // Explicit edge values: the cached transpose holds the undropped values. A gradient of the
    // owned prefix only is padded with zero rows.
    Tensor gp = g;
    if (n < sx.rows) {
      gp = Tensor::zeros({sx.rows, g.row_numel()}, DType::f32, env.ctx);
      gp.rows(0, n).copy_from(g);
    }
    const Tensor& grad = grad_of(env.ctx, w);
    k::spmm_t(env.ctx, sx, gp, grad, dropped_sparse(env).values, 1.0f);
    return Tensor();
  }
  Tensor gin = need_input_grad ? Tensor::empty({n, w.value.dim(0)}, DType::f32, env.ctx) : Tensor();
  if (!active) {
    k::gemm(env.ctx, in.rows(0, n), true, g, false, grad_of(env.ctx, w), 1.0f, 1.0f);
    if (need_input_grad) k::gemm(env.ctx, g, false, w.value, true, gin);
    return gin;
  }
  const int64_t f = in.row_numel(), b = block_rows(f);
  if (n == 0) return gin;
  Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
  for (int64_t r0 = 0; r0 < n; r0 += b) {
    const int64_t r1 = std::min(n, r0 + b);
    Tensor blk = s.rows(0, r1 - r0);
    drop_rows(env, r0, r1, in.rows(r0, r1), blk);
    k::gemm(env.ctx, blk, true, g.rows(r0, r1), false, grad_of(env.ctx, w), 1.0f, 1.0f);
    if (!need_input_grad) continue;
    Tensor gi = gin.rows(r0, r1);
    k::gemm(env.ctx, g.rows(r0, r1), false, w.value, true, gi);
    drop_rows(env, r0, r1, gi, gi);  // (G W^T) * keep / (1 - p)
  }
  return gin;
}

void DropIn::back_inplace(ForwardEnv& env, const Tensor& g) const {
  if (active) drop_rows(env, 0, g.rows(), g, g);
}

}  // namespace mlsys::gnn
