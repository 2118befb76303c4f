#pragma once
// Argument checks shared by the kernel backends. Each throws mlsys::Error naming the kernel,
// the argument and what was expected, so a shape bug reads like a sentence.
#include <string>

#include "core/kernels/kernels.hpp"

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
SpmmShape check_spmm(const Csr& a, const Tensor& x, const Tensor& out, const Tensor& edge_values, bool transposed,
                     const char* fn);

#ifdef __CUDACC__
#define MLSYS_HD __host__ __device__
#else
#define MLSYS_HD
#endif
// Counter-based hash used by dropout (splitmix64 finalizer); identical on every backend.
MLSYS_HD inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
MLSYS_HD inline float uniform_from(uint64_t seed, uint64_t i) {
  return static_cast<float>(mix64(seed * 0xd1342543de82ef95ull + i) >> 40) * (1.0f / 16777216.0f);
}

}  // namespace mlsys::kernels::detail
