// Element-wise kernels on the host (OpenMP for large arrays; small ones stay on one thread).
#include <omp.h>

#include <cmath>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {
constexpr int64_t kParallelMin = 1 << 15;

void check_pair(const Tensor& a, const Tensor& b, const char* fn) {
  require_f32(a, fn, "input");
  require_f32(b, fn, "output");
  require_same_numel(a, b, fn);
}

template <class Fn>
void map1(const Tensor& x, const Tensor& out, const char* name, Fn fn) {
  check_pair(x, out, name);
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  const int64_t n = x.numel();
#pragma omp parallel for simd schedule(static) if (n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) op[i] = fn(xp[i]);
}

template <class Fn>
void map2(const Tensor& a, const Tensor& b, const Tensor& out, const char* name, Fn fn) {
  check_pair(a, out, name);
  check_pair(b, out, name);
  const float* ap = a.data<float>();
  const float* bp = b.data<float>();
  float* op = out.data<float>();
  const int64_t n = a.numel();
#pragma omp parallel for simd schedule(static) if (n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) op[i] = fn(ap[i], bp[i]);
}
}  // namespace

void fill(DeviceContext&, const Tensor& out, float value) {
  require_f32(out, "fill", "out");
  float* op = out.data<float>();
  const int64_t n = out.numel();
#pragma omp parallel for simd schedule(static) if (n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) op[i] = value;
}

void add(DeviceContext&, const Tensor& a, const Tensor& b, const Tensor& out) {
  map2(a, b, out, "add", [](float x, float y) { return x + y; });
}
void mul(DeviceContext&, const Tensor& a, const Tensor& b, const Tensor& out) {
  map2(a, b, out, "mul", [](float x, float y) { return x * y; });
}
void scale(DeviceContext&, const Tensor& x, float alpha, const Tensor& out) {
  map1(x, out, "scale", [alpha](float v) { return alpha * v; });
}
void axpy(DeviceContext&, float alpha, const Tensor& x, const Tensor& y) {
  map2(x, y, y, "axpy", [alpha](float a, float b) { return b + alpha * a; });
}

void add_row_vector(DeviceContext&, const Tensor& x, const Tensor& bias, const Tensor& out) {
  check_pair(x, out, "add_row_vector");
  require_f32(bias, "add_row_vector", "bias");
  const int64_t f = bias.numel(), n = x.rows();
  require_rows_cols(x, n, f, "add_row_vector", "x");
  const float* xp = x.data<float>();
  const float* bp = bias.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (n * f > kParallelMin)
  for (int64_t r = 0; r < n; ++r)
#pragma omp simd
    for (int64_t j = 0; j < f; ++j) op[r * f + j] = xp[r * f + j] + bp[j];
}

void scale_rows(DeviceContext&, const Tensor& x, const Tensor& s, const Tensor& out) {
  check_pair(x, out, "scale_rows");
  require_f32(s, "scale_rows", "s");
  const int64_t n = x.rows(), f = x.row_numel();
  require_numel(s, n, "scale_rows", "s");
  const float* xp = x.data<float>();
  const float* sp = s.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (n * f > kParallelMin)
  for (int64_t r = 0; r < n; ++r)
#pragma omp simd
    for (int64_t j = 0; j < f; ++j) op[r * f + j] = sp[r] * xp[r * f + j];
}

void relu(DeviceContext&, const Tensor& x, const Tensor& out) {
  map1(x, out, "relu", [](float v) { return v > 0.f ? v : 0.f; });
}
void relu_backward(DeviceContext&, const Tensor& x, const Tensor& g, const Tensor& gi) {
  map2(x, g, gi, "relu_backward", [](float v, float gv) { return v > 0.f ? gv : 0.f; });
}
void leaky_relu(DeviceContext&, const Tensor& x, const Tensor& out, float slope) {
  map1(x, out, "leaky_relu", [slope](float v) { return v > 0.f ? v : slope * v; });
}
void leaky_relu_backward(DeviceContext&, const Tensor& x, const Tensor& g, const Tensor& gi, float slope) {
  map2(x, g, gi, "leaky_relu_backward", [slope](float v, float gv) { return v > 0.f ? gv : slope * gv; });
}
void elu(DeviceContext&, const Tensor& x, const Tensor& out, float alpha) {
  map1(x, out, "elu", [alpha](float v) { return v > 0.f ? v : alpha * std::expm1(v); });
}
void elu_backward(DeviceContext&, const Tensor& x, const Tensor& g, const Tensor& gi, float alpha) {
  map2(x, g, gi, "elu_backward", [alpha](float v, float gv) { return v > 0.f ? gv : gv * alpha * std::exp(v); });
}

void dropout(DeviceContext&, const Tensor& x, const Tensor& out, const Tensor& mask, float p, uint64_t seed) {
  check_pair(x, out, "dropout");
  if (!mask.defined() || mask.dtype() != DType::u8) throw Error("kernels::dropout: mask must be a u8 tensor");
  require_numel(mask, x.numel(), "dropout", "mask");
  if (!(p >= 0.f && p < 1.f)) throw Error("kernels::dropout: p must be in [0, 1), got " + std::to_string(p));
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  uint8_t* mp = mask.data<uint8_t>();
  const float inv = 1.f / (1.f - p);
  const int64_t n = x.numel();
#pragma omp parallel for schedule(static) if (n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t keep = uniform_from(seed, static_cast<uint64_t>(i)) >= p;
    mp[i] = keep;
    op[i] = keep ? xp[i] * inv : 0.f;
  }
}

void dropout_backward(DeviceContext&, const Tensor& g, const Tensor& mask, float p, const Tensor& gi) {
  check_pair(g, gi, "dropout_backward");
  if (!mask.defined() || mask.dtype() != DType::u8) throw Error("kernels::dropout_backward: mask must be a u8 tensor");
  require_numel(mask, g.numel(), "dropout_backward", "mask");
  const float* gp = g.data<float>();
  const uint8_t* mp = mask.data<uint8_t>();
  float* op = gi.data<float>();
  const float inv = 1.f / (1.f - p);
  const int64_t n = g.numel();
#pragma omp parallel for simd schedule(static) if (n > kParallelMin)
  for (int64_t i = 0; i < n; ++i) op[i] = mp[i] ? gp[i] * inv : 0.f;
}

namespace {
// One row of f values of the keyed dropout. Written so the compiler vectorizes the hash (AVX-512 /
// AVX2 clones picked at run time; the build itself targets baseline x86-64).
__attribute__((target_clones("avx512f", "avx2", "default"))) void keyed_row(const float* x, const float* src, float* y,
                                                                             int64_t f, uint32_t key,
                                                                             uint32_t threshold, float scale) {
  for (int64_t c = 0; c < f; ++c) {
    const bool keep = (x[c] != 0.0f) & keyed_keep(key, c, threshold);
    y[c] = keep ? src[c] * scale : 0.0f;
  }
}

// One row's nonzeros of the keyed CSR dropout, vectorizable like keyed_row.
template <class Col>
__attribute__((target_clones("avx512f", "avx2", "default"))) void keyed_csr_row(const Col* col, const float* v, float* out,
                                                                                 int64_t n, uint64_t row_seed,
                                                                                 uint64_t keep_from, float scale) {
  for (int64_t e = 0; e < n; ++e)
    out[e] = keyed_keep_nonzero_in_row(row_seed, static_cast<int64_t>(col[e]), keep_from) ? v[e] * scale : 0.0f;
}

template <class Col>
void keyed_csr(const Csr& a, const int32_t* ids, float p, uint64_t seed, float* out) {
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const Col* col = a.col.data<Col>();
  const float* v = a.values.data<float>();
  const float scale = 1.0f / (1.0f - p);
  const uint64_t keep_from = keyed_keep_from(p);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < a.rows; ++r)
    keyed_csr_row(col + rp[r], v + rp[r], out + rp[r], rp[r + 1] - rp[r], derive_seed(seed, static_cast<uint64_t>(ids[r])),
                  keep_from, scale);
}
}  // namespace

void dropout_keyed(DeviceContext&, const Tensor& x, const Tensor& src, const Tensor& ids, float p, uint64_t seed,
                   const Tensor& out) {
  const RowDims d = check_dropout_keyed(x, src, ids, p, out);
  if (d.n * d.f == 0) return;
  const float* xp = x.data<float>();
  const float* sp = src.data<float>();
  const int32_t* id = ids.data<int32_t>();
  float* op = out.data<float>();
  const float scale = 1.0f / (1.0f - p);
  const uint32_t threshold = keyed_threshold(p);
  const int64_t f = d.f;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < d.n; ++r)
    keyed_row(xp + r * f, sp + r * f, op + r * f, f, keyed_row_key(seed, id[r]), threshold, scale);
}

void dropout_keyed_csr(DeviceContext&, const Csr& a, const Tensor& ids, float p, uint64_t seed,
                       const Tensor& values_out) {
  check_dropout_keyed_csr(a, ids, p, values_out);
  if (a.nnz() == 0) return;
  if (a.col.dtype() == DType::i64) keyed_csr<int64_t>(a, ids.data<int32_t>(), p, seed, values_out.data<float>());
  else keyed_csr<int32_t>(a, ids.data<int32_t>(), p, seed, values_out.data<float>());
}

}  // namespace mlsys::kernels::cpu
