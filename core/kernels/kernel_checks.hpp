#pragma once
// Argument checks shared by the kernel backends. Each throws mlsys::Error naming the kernel,
// the argument and what was expected, so a shape bug reads like a sentence.
#include <cmath>
#include <string>

#include "core/kernels/kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/util/hd.hpp"
#include "core/util/splitmix64.hpp"

namespace mlsys::kernels::detail {

void require_f32(const Tensor& t, const char* fn, const char* arg);
void require_index(const Tensor& t, const char* fn, const char* arg);  // i32 or i64, 1-D
void require_numel(const Tensor& t, int64_t n, const char* fn, const char* arg);
void require_same_numel(const Tensor& a, const Tensor& b, const char* fn);
// 2-D view sizes: rows (first dim) and the elements per row.
void require_rows_cols(const Tensor& t, int64_t rows, int64_t cols, const char* fn, const char* arg);
// Heads H of a per-edge array [nnz] (H = 1) or [nnz, H]; checks nnz.
int64_t edge_heads(const Tensor& e, int64_t nnz, const char* fn, const char* arg);
// GEMM operands: all f32 2-D, op(a) [m,k], op(b) [k,n], c [m,n].
struct GemmDims {
  int64_t m = 0, n = 0, k = 0;
};
GemmDims check_gemm(const Tensor& a, bool trans_a, const Tensor& b, bool trans_b, const Tensor& c);
// Row-wise ops on x [N, F]: the checks of layer_norm and cosine_similarity_loss.
struct RowDims {
  int64_t n = 0, f = 0;
};
RowDims check_layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& y, const Tensor& mean,
                         const Tensor& rstd);
RowDims check_cosine(const Tensor& a, const Tensor& b, const Tensor& grad_a, const Tensor& grad_b,
                     const Tensor& row_weight = Tensor());
// l2_normalize_rows (grad_x undefined) and its backward: x/y and grad_y/grad_x [N, F], norm [N].
RowDims check_l2_normalize(const Tensor& x, const Tensor& y, const Tensor& norm, const char* fn);
// The checks every spmm backend needs; returns heads of the edge weights (0 = none, use A.values/1).
struct SpmmShape {
  int64_t f = 0;      // feature width
  int64_t heads = 0;  // 0: weights from A.values (or 1); else edge_values has this many heads
};
// dropout_keyed: x, src, out [N, F] f32, row_ids i32 [N], p in [0, 1); and the CSR form (row_ids
// [a.rows], values_out f32 [nnz]). Return N and F (the CSR form: rows and nnz).
RowDims check_dropout_keyed(const Tensor& x, const Tensor& src, const Tensor& row_ids, float p, const Tensor& out);
RowDims check_dropout_keyed_csr(const Csr& a, const Tensor& row_ids, float p, const Tensor& values_out);
SpmmShape check_spmm(const Csr& a, const Tensor& x, const Tensor& out, const Tensor& edge_values, bool transposed,
                     const char* fn);

// Counter-based uniform used by dropout (splitmix64, core/util/splitmix64.hpp); identical on every
// backend.
MLSYS_HD float uniform_from(uint64_t seed, uint64_t i) {
  return static_cast<float>(splitmix64_step(seed * 0xd1342543de82ef95ull + i) >> 40) * (1.0f / 16777216.0f);
}

// Keyed (partition-invariant) dropout: the draws depend on (seed, row id, column), never on where
// the row lies in a tensor, so every worker holding a node draws its mask alike.
//   dense: row key = high 32 bits of derive_seed(seed, id); keep column c when
//          (quant::rng_bits(key, c) >> 8) >= threshold, threshold = floor(p * 2^24) (24-bit uniform)
//   CSR:   keep nonzero (id, c) when the 53-bit uniform of derive_seed(seed, id, c) is >= p
MLSYS_HD uint32_t keyed_threshold(float p) { return static_cast<uint32_t>(static_cast<double>(p) * 16777216.0); }
MLSYS_HD uint32_t keyed_row_key(uint64_t seed, int64_t id) {
  return static_cast<uint32_t>(derive_seed(seed, static_cast<uint64_t>(id)) >> 32);
}
MLSYS_HD bool keyed_keep(uint32_t row_key, int64_t c, uint32_t threshold) {
  return (quant::rng_bits(row_key, static_cast<uint32_t>(c)) >> 8) >= threshold;
}
// The CSR rule in integers: the 53-bit uniform u * 2^-53 is >= p exactly when u >= ceil(p * 2^53)
// (exact in double: p is a float). Given the row's seed, derive_seed(seed, id), a row's nonzeros
// take it once (the host kernel vectorizes over them).
MLSYS_HD uint64_t keyed_keep_from(float p) { return static_cast<uint64_t>(ceil(static_cast<double>(p) * 0x1.0p53)); }
MLSYS_HD bool keyed_keep_nonzero_in_row(uint64_t row_seed, int64_t c, uint64_t keep_from) {
  return (derive_seed(row_seed, static_cast<uint64_t>(c)) >> 11) >= keep_from;
}
MLSYS_HD bool keyed_keep_nonzero(uint64_t seed, int64_t id, int64_t c, float p) {
  return keyed_keep_nonzero_in_row(derive_seed(seed, static_cast<uint64_t>(id)), c, keyed_keep_from(p));
}

}  // namespace mlsys::kernels::detail
