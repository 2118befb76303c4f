#include "gnn/model/dropout.hpp"

#include <algorithm>

#include "core/kernels/kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

namespace {

// Graph dropout's keep test: a 24-bit uniform from a per-row key (seed, global id) and a cheap
// per-column mix, so a node's mask is the same whichever worker owns it. A zero input counts as
// dropped: its gradient is not needed (raw features) or already zero (ReLU outputs), and the hash
// is skipped for sparse rows.
inline uint32_t drop_threshold(float p) { return static_cast<uint32_t>(static_cast<double>(p) * 16777216.0); }
inline uint32_t drop_row_key(uint64_t seed, int32_t gid) {
  return static_cast<uint32_t>(derive_seed(seed, static_cast<uint64_t>(gid)) >> 32);
}
inline bool drop_keep(uint32_t key, int64_t c, uint32_t threshold) {
  return (quant::rng_bits(key, static_cast<uint32_t>(c)) >> 8) >= threshold;
}

// One row of f values: y = src * scale where the input row x keeps the column, else 0 (forward:
// src = x; backward: src = y = the gradient). Written so the compiler vectorizes the hash
// (AVX-512 / AVX2 clones picked at run time; the build itself targets baseline x86-64).
__attribute__((target_clones("avx512f", "avx2", "default"))) void dropout_row(const float* x, const float* src, float* y,
                                                                               int64_t f, uint32_t key,
                                                                               uint32_t threshold, float scale) {
  for (int64_t c = 0; c < f; ++c) {
    const bool keep = (x[c] != 0.0f) & drop_keep(key, c, threshold);
    y[c] = keep ? src[c] * scale : 0.0f;
  }
}

// Rows [r0, r1) of src [*, f] times keep / (1 - p) into out (row r at out + (r - r0) * f), the keep
// mask regenerated from x's rows and the seed (forward: src = x; backward: src = out = the gradient).
void dropout_rows(const float* x, const float* src, float* out, int64_t r0, int64_t r1, int64_t f, float p,
                  uint64_t seed, const int32_t* gids) {
  const float scale = 1.0f / (1.0f - p);
  const uint32_t threshold = drop_threshold(p);
#pragma omp parallel for schedule(static)
  for (int64_t i = r0; i < r1; ++i)
    dropout_row(x + i * f, src + i * f, out + (i - r0) * f, f, drop_row_key(seed, gids[i]), threshold, scale);
}

// Rows per block of the fused dropout products: a dropped block (about 8 MiB) stays in the
// last-level cache between being formed and being multiplied.
int64_t block_rows(int64_t f) { return std::clamp<int64_t>((int64_t{1} << 21) / std::max<int64_t>(f, 1), 64, 16384); }

}  // namespace

void DropIn::begin(ForwardEnv& env, const Tensor& h, float prob, int slot) {
  *this = DropIn();
  p = prob;
  seed = derive_seed(env.dropout_seed, static_cast<uint64_t>(slot));
  gids = env.lg.global_ids.data();
  if (!h.defined() && env.sparse_x) {
    sx = *env.sparse_x;
    if (env.train && p > 0 && sx.nnz() > 0) {
      const int64_t nnz = sx.nnz();
      Tensor vals = Tensor::empty({nnz}, DType::f32, env.ctx);
      if (!env.ctx.device().is_cpu()) {
        Tensor m = Tensor::empty({nnz}, DType::u8, env.ctx);
        k::dropout(env.ctx, sx.values, vals, m, p, seed);  // device memory: the kernel's stream
      } else {
        // Host memory: a hash of (seed, global id, column), the same whichever worker holds the row.
        const float* v = env.sparse_x->values.data<float>();
        const int64_t* rp = sx.row_ptr.data<int64_t>();
        const int32_t* col = sx.col.data<int32_t>();
        float* out = vals.data<float>();
        const float scale = 1.0f / (1.0f - p);
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < sx.rows; ++r)
          for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
            const uint64_t key = derive_seed(seed, static_cast<uint64_t>(env.lg.global_ids[r]), static_cast<uint64_t>(col[e]));
            out[e] = static_cast<double>(key >> 11) * 0x1.0p-53 >= p ? v[e] * scale : 0.0f;
          }
      }
      sx.values = vals;
    }
    return;
  }
  in = h;
  active = env.train && p > 0;
  if (active && !env.ctx.device().is_cpu()) {
    hd = Tensor::empty(h.shape(), DType::f32, env.ctx);
    mask = Tensor::empty(h.shape(), DType::u8, env.ctx);
    k::dropout(env.ctx, h, hd, mask, p, seed);  // the device kernel stores its mask
  }
}

Tensor DropIn::dropped(ForwardEnv& env) const {
  if (!regenerated()) return active ? hd : in;
  Tensor t = Tensor::empty(in.shape(), DType::f32, env.ctx);
  dropout_rows(in.data<float>(), in.data<float>(), t.data<float>(), 0, in.rows(), in.row_numel(), p, seed, gids);
  return t;
}

void DropIn::matmul(ForwardEnv& env, const Tensor& w, const Tensor& out, float beta) const {
  const int64_t n = out.rows();
  if (n < rows() && beta != 0.0f) throw Error("DropIn::matmul: a prefix of the rows takes beta = 0");
  if (sx.rows) {
    if (n == sx.rows) return k::spmm(env.ctx, sx, w, out, Tensor(), beta);
    // The owned prefix of a local sparse input: its rows are not a matrix of their own.
    Tensor all = Tensor::empty({sx.rows, out.row_numel()}, DType::f32, env.ctx);
    k::spmm(env.ctx, sx, w, all);
    out.copy_from(all.rows(0, n));
    return;
  }
  if (!regenerated()) return k::gemm(env.ctx, (active ? hd : in).rows(0, n), false, w, false, out, 1.0f, beta);
  const int64_t f = in.row_numel(), b = block_rows(f);
  if (n == 0) return;
  Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
  for (int64_t r0 = 0; r0 < n; r0 += b) {
    const int64_t r1 = std::min(n, r0 + b);
    dropout_rows(in.data<float>(), in.data<float>(), s.data<float>(), r0, r1, f, p, seed, gids);
    k::gemm(env.ctx, s.rows(0, r1 - r0), false, w, false, out.rows(r0, r1), 1.0f, beta);
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
    k::spmm_t(env.ctx, sx, gp, w.grad, sx.values, 1.0f);
    return Tensor();
  }
  Tensor gin = need_input_grad ? Tensor::empty({n, w.value.dim(0)}, DType::f32, env.ctx) : Tensor();
  if (!regenerated()) {
    k::gemm(env.ctx, (active ? hd : in).rows(0, n), true, g, false, w.grad, 1.0f, 1.0f);
    if (need_input_grad) {
      k::gemm(env.ctx, g, false, w.value, true, gin);
      if (active) k::dropout_backward(env.ctx, gin, mask.rows(0, n), p, gin);
    }
    return gin;
  }
  const int64_t f = in.row_numel(), b = block_rows(f);
  if (n == 0) return gin;
  Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
  const float scale = 1.0f / (1.0f - p);
  for (int64_t r0 = 0; r0 < n; r0 += b) {
    const int64_t r1 = std::min(n, r0 + b);
    Tensor blk = s.rows(0, r1 - r0);
    dropout_rows(in.data<float>(), in.data<float>(), blk.data<float>(), r0, r1, f, p, seed, gids);
    k::gemm(env.ctx, blk, true, g.rows(r0, r1), false, w.grad, 1.0f, 1.0f);
    if (!need_input_grad) continue;
    Tensor gi = gin.rows(r0, r1);
    k::gemm(env.ctx, g.rows(r0, r1), false, w.value, true, gi);
    const float* d = blk.data<float>();
    float* o = gi.data<float>();
    const int64_t cnt = (r1 - r0) * f;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < cnt; ++i) o[i] = d[i] != 0.0f ? o[i] * scale : 0.0f;
  }
  return gin;
}

void DropIn::back_inplace(ForwardEnv& env, const Tensor& g) const {
  if (!active) return;
  if (!regenerated()) return k::dropout_backward(env.ctx, g, mask, p, g);
  dropout_rows(in.data<float>(), g.data<float>(), g.data<float>(), 0, g.rows(), g.row_numel(), p, seed, gids);
}

}  // namespace mlsys::gnn
