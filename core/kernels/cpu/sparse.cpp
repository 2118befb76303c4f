// CSR kernels on the host. SpMM is the hot path of GCN training: every output row is owned by
// one thread (no atomics), rows are handed out dynamically (power-law degrees), and each row's
// accumulators for a block of features stay in vector registers while the row's nonzeros stream
// by. The row kernel is compiled for AVX-512, AVX2 and baseline x86-64 and picked at run time.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {

// Per-edge weight: none (1), w[e*stride + off], or w[eid[e]*stride + off] (transposed view).
struct Weights {
  const float* w = nullptr;
  const int64_t* eid = nullptr;
  int64_t stride = 1;
  int64_t off = 0;
};
enum WeightMode { kNoWeights, kDirect, kIndirect };

template <int kMode>
inline __attribute__((always_inline)) float weight_at(const Weights& wt, int64_t e) {
  if constexpr (kMode == kNoWeights) return 1.f;
  else if constexpr (kMode == kDirect) return wt.w[e * wt.stride + wt.off];
  else return wt.w[wt.eid[e] * wt.stride + wt.off];
}

// 8 floats; aligned(4) makes loads/stores unaligned-safe. On targets without AVX the compiler
// splits it into SSE halves.
typedef float V8 __attribute__((vector_size(32), aligned(4)));

// One row, columns [c0, c0 + width): kNV vector accumulators (kNV * 8 columns) per pass stay in
// registers while the row's nonzeros stream by; the X rows of upcoming nonzeros are prefetched.
template <int kNV, int kMode, class I>
inline __attribute__((always_inline)) void spmm_row(const int64_t* rp, const I* col, const Weights& wt,
                                                     const float* x, float* out, int64_t f, int64_t c0,
                                                     int64_t width, int64_t r, float beta) {
  constexpr int kPrefetch = 8;
  const int64_t e0 = rp[r], e1 = rp[r + 1];
  int64_t c = c0;
  const int64_t end = c0 + width;
  for (; end - c >= 8 * kNV; c += 8 * kNV) {
    V8 acc[kNV];
    for (int k = 0; k < kNV; ++k) acc[k] = V8{} ;
    for (int64_t e = e0; e < e1; ++e) {
      if (e + kPrefetch < e1) {
        const float* pf = x + static_cast<int64_t>(col[e + kPrefetch]) * f + c;
        for (int k = 0; k < kNV; k += 2) __builtin_prefetch(pf + 8 * k);
      }
      const float w = weight_at<kMode>(wt, e);
      const V8* xr = reinterpret_cast<const V8*>(x + static_cast<int64_t>(col[e]) * f + c);
      for (int k = 0; k < kNV; ++k) acc[k] += w * xr[k];
    }
    V8* o = reinterpret_cast<V8*>(out + r * f + c);
    if (beta == 0.f) {
      for (int k = 0; k < kNV; ++k) o[k] = acc[k];
    } else {
      for (int k = 0; k < kNV; ++k) o[k] = beta * o[k] + acc[k];
    }
  }
  for (; end - c >= 8; c += 8) {  // remaining whole vectors, one at a time
    V8 acc = V8{};
    for (int64_t e = e0; e < e1; ++e)
      acc += weight_at<kMode>(wt, e) * *reinterpret_cast<const V8*>(x + static_cast<int64_t>(col[e]) * f + c);
    V8* o = reinterpret_cast<V8*>(out + r * f + c);
    *o = beta == 0.f ? acc : beta * *o + acc;
  }
  if (c < end) {  // fewer than 8 columns
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int64_t n = end - c;
    for (int64_t e = e0; e < e1; ++e) {
      const float w = weight_at<kMode>(wt, e);
      const float* xr = x + static_cast<int64_t>(col[e]) * f + c;
      for (int64_t j = 0; j < n; ++j) acc[j] += w * xr[j];
    }
    float* o = out + r * f + c;
    for (int64_t j = 0; j < n; ++j) o[j] = beta == 0.f ? acc[j] : beta * o[j] + acc[j];
  }
}

template <int kNV, class I>
inline __attribute__((always_inline)) void spmm_rows_impl(const int64_t* rp, const I* col, const Weights& wt,
                                                           const float* x, float* out, int64_t f, int64_t c0,
                                                           int64_t width, int64_t r0, int64_t r1, float beta) {
  if (!wt.w) {
    for (int64_t r = r0; r < r1; ++r) spmm_row<kNV, kNoWeights>(rp, col, wt, x, out, f, c0, width, r, beta);
  } else if (!wt.eid) {
    for (int64_t r = r0; r < r1; ++r) spmm_row<kNV, kDirect>(rp, col, wt, x, out, f, c0, width, r, beta);
  } else {
    for (int64_t r = r0; r < r1; ++r) spmm_row<kNV, kIndirect>(rp, col, wt, x, out, f, c0, width, r, beta);
  }
}

// The same source compiled three times; the widest the CPU supports is chosen at run time, so
// the build needs no -march flag. AVX-512 has 32 registers: 16 accumulators = 128 columns.
template <class I>
__attribute__((target("avx512f,avx512vl,fma"))) void spmm_rows_avx512(const int64_t* rp, const I* col, Weights wt,
                                                                        const float* x, float* out, int64_t f,
                                                                        int64_t c0, int64_t width, int64_t r0,
                                                                        int64_t r1, float beta) {
  spmm_rows_impl<16>(rp, col, wt, x, out, f, c0, width, r0, r1, beta);
}
template <class I>
__attribute__((target("avx2,fma"))) void spmm_rows_avx2(const int64_t* rp, const I* col, Weights wt, const float* x,
                                                        float* out, int64_t f, int64_t c0, int64_t width, int64_t r0,
                                                        int64_t r1, float beta) {
  spmm_rows_impl<8>(rp, col, wt, x, out, f, c0, width, r0, r1, beta);
}
template <class I>
void spmm_rows_base(const int64_t* rp, const I* col, Weights wt, const float* x, float* out, int64_t f, int64_t c0,
                    int64_t width, int64_t r0, int64_t r1, float beta) {
  spmm_rows_impl<4>(rp, col, wt, x, out, f, c0, width, r0, r1, beta);
}

template <class I>
using SpmmRowsFn = void (*)(const int64_t*, const I*, Weights, const float*, float*, int64_t, int64_t, int64_t,
                            int64_t, int64_t, float);
template <class I>
SpmmRowsFn<I> pick_spmm_rows() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma"))
    return &spmm_rows_avx512<I>;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &spmm_rows_avx2<I>;
  return &spmm_rows_base<I>;
}

// Rows per dynamically scheduled chunk: small enough to balance skewed degrees, large enough to
// amortize scheduling.
int64_t row_chunk(int64_t rows, int64_t nnz) {
  int64_t avg = rows ? std::max<int64_t>(1, nnz / rows) : 1;
  return std::clamp<int64_t>(4096 / avg, 16, 1024);
}

template <class I>
void spmm_impl(const Csr& a, const Tensor& x, const Tensor& out, const float* w, const int64_t* eid, int64_t heads,
               int64_t f, float beta) {
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const I* col = a.col.data<I>();
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  const int64_t rows = a.rows, chunk = row_chunk(rows, a.nnz());
  const int64_t h_count = std::max<int64_t>(heads, 1), d = f / h_count;
  static const SpmmRowsFn<I> spmm_rows = pick_spmm_rows<I>();
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const int64_t r1 = std::min(rows, r0 + chunk);
    for (int64_t h = 0; h < h_count; ++h) {
      Weights wt{w, eid, heads > 0 ? heads : 1, heads > 0 ? h : 0};
      spmm_rows(rp, col, wt, xp, op, f, h * d, d, r0, r1, beta);
    }
  }
}

void spmm_dispatch(const Csr& a, const Tensor& x, const Tensor& out, const float* w, const int64_t* eid,
                   int64_t heads, int64_t f, float beta) {
  if (a.rows == 0 || f == 0) return;
  if (a.col.dtype() == DType::i64) spmm_impl<int64_t>(a, x, out, w, eid, heads, f, beta);
  else spmm_impl<int32_t>(a, x, out, w, eid, heads, f, beta);
}

// A^T X without a transposed copy (Csr::with_transpose() costs 16 bytes per nonzero, twice the
// matrix itself): the output columns [c0, c1) of every row take a zeroed accumulator, the
// nonzeros are scattered into it in source-row order, and the accumulator is added to out at the
// end. Per output element that is the transposed kernel's arithmetic step for step (its row
// lists the source rows in ascending order: the transpose is stable), so both give the same bits.
template <class I>
inline __attribute__((always_inline)) void spmm_t_scatter_impl(const int64_t* rp, const I* col, const float* w,
                                                                int64_t heads, const float* x, float* out, float* acc,
                                                                int64_t rows, int64_t cols, int64_t f, int64_t c0,
                                                                int64_t c1, float beta) {
  // acc == out: out is all +0 and is the accumulator (a sum that starts at +0 adds up to the same
  // bits as +0 + that sum); otherwise acc holds columns [c0, c1) of every output row.
  const bool direct = acc == out;
  const int64_t width = c1 - c0, hs = std::max<int64_t>(heads, 1), d = f / hs;
  const int64_t stride = direct ? f : width, off = direct ? 0 : c0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * f;
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
      float* a = acc + static_cast<int64_t>(col[e]) * stride;
      for (int64_t h = 0; h < hs; ++h) {
        const int64_t b = std::max(c0, h * d), end = std::min(c1, h * d + d);
        if (b >= end) continue;
        const float we = !w ? 1.f : heads > 0 ? w[e * heads + h] : w[e];
        int64_t c = b;
        for (; end - c >= 8; c += 8)
          *reinterpret_cast<V8*>(a + c - off) += we * *reinterpret_cast<const V8*>(xr + c);
        for (; c < end; ++c) a[c - off] += we * xr[c];
      }
    }
  }
  if (direct) return;
  for (int64_t r = 0; r < cols; ++r) {
    float* o = out + r * f;
    const float* a = acc + r * width;
    int64_t c = c0;
    for (; c1 - c >= 8; c += 8) {
      V8* ov = reinterpret_cast<V8*>(o + c);
      const V8 av = *reinterpret_cast<const V8*>(a + c - c0);
      *ov = beta == 0.f ? av : beta * *ov + av;
    }
    for (; c < c1; ++c) o[c] = beta == 0.f ? a[c - c0] : beta * o[c] + a[c - c0];
  }
}

// Compiled as the SpMM rows are (the same instruction sets, so the same contractions into FMA).
template <class I>
__attribute__((target("avx512f,avx512vl,fma"))) void spmm_t_scatter_avx512(const int64_t* rp, const I* col, const float* w,
                                                                             int64_t heads, const float* x, float* out,
                                                                             float* acc, int64_t rows, int64_t cols,
                                                                             int64_t f, int64_t c0, int64_t c1, float beta) {
  spmm_t_scatter_impl(rp, col, w, heads, x, out, acc, rows, cols, f, c0, c1, beta);
}
template <class I>
__attribute__((target("avx2,fma"))) void spmm_t_scatter_avx2(const int64_t* rp, const I* col, const float* w, int64_t heads,
                                                             const float* x, float* out, float* acc, int64_t rows,
                                                             int64_t cols, int64_t f, int64_t c0, int64_t c1, float beta) {
  spmm_t_scatter_impl(rp, col, w, heads, x, out, acc, rows, cols, f, c0, c1, beta);
}
template <class I>
void spmm_t_scatter_base(const int64_t* rp, const I* col, const float* w, int64_t heads, const float* x, float* out,
                         float* acc, int64_t rows, int64_t cols, int64_t f, int64_t c0, int64_t c1, float beta) {
  spmm_t_scatter_impl(rp, col, w, heads, x, out, acc, rows, cols, f, c0, c1, beta);
}

template <class I>
using SpmmTScatterFn = void (*)(const int64_t*, const I*, const float*, int64_t, const float*, float*, float*, int64_t,
                                int64_t, int64_t, int64_t, int64_t, float);
template <class I>
SpmmTScatterFn<I> pick_spmm_t_scatter() {
  // The same choice as pick_spmm_rows: the two paths must agree bit for bit on one machine.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma"))
    return &spmm_t_scatter_avx512<I>;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &spmm_t_scatter_avx2<I>;
  return &spmm_t_scatter_base<I>;
}

// Threads split the output columns in groups of 8 (deterministic: an element's sums do not depend
// on the split); each holds an accumulator of its columns for every output row, unless out can be
// the accumulator: beta = 0 (out is zeroed first) or out all +0 (a freshly zeroed gradient).
template <class I>
void spmm_t_scatter(const Csr& a, const Tensor& x, const Tensor& out, const float* w, int64_t heads, int64_t f,
                    float beta) {
  static const SpmmTScatterFn<I> scatter = pick_spmm_t_scatter<I>();
  const int64_t groups = (f + 7) / 8;
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const I* col = a.col.data<I>();
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  const size_t n = static_cast<size_t>(a.cols * f);
  bool direct = beta == 0.f;
  if (direct) std::fill(op, op + n, 0.f);
  else direct = std::all_of(reinterpret_cast<const uint32_t*>(op), reinterpret_cast<const uint32_t*>(op) + n,
                            [](uint32_t b) { return b == 0; });
#pragma omp parallel
  {
    const int64_t nt = std::min<int64_t>(omp_get_num_threads(), groups), t = omp_get_thread_num();
    if (t < nt) {
      const int64_t c0 = std::min(f, groups * t / nt * 8), c1 = std::min(f, groups * (t + 1) / nt * 8);
      std::vector<float> acc(direct ? 0 : static_cast<size_t>(a.cols * (c1 - c0)), 0.f);
      scatter(rp, col, w, heads, xp, op, direct ? op : acc.data(), a.rows, a.cols, f, c0, c1, beta);
    }
  }
}

template <class Fn>
void for_col_type(const Csr& a, Fn&& fn) {
  if (a.col.dtype() == DType::i64) fn(a.col.data<int64_t>());
  else fn(a.col.data<int32_t>());
}

}  // namespace

void spmm(DeviceContext&, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  SpmmShape s = check_spmm(a, x, out, ev, false, "spmm");
  const float* w = ev.defined() ? ev.data<float>() : (a.has_values() ? a.values.data<float>() : nullptr);
  spmm_dispatch(a, x, out, w, nullptr, s.heads, s.f, beta);
}

void spmm_t(DeviceContext&, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  SpmmShape s = check_spmm(a, x, out, ev, true, "spmm_t");
  if (a.symmetric && !ev.defined() && a.rows == a.cols) {
    spmm_dispatch(a, x, out, a.has_values() ? a.values.data<float>() : nullptr, nullptr, 0, s.f, beta);
    return;
  }
  const Csr* t = a.transposed.get();
  if (t && ev.defined() && !t->edge_id.defined()) t = nullptr;  // kept without edge ids: the scatter serves
  if (!t) {
    if (a.cols == 0 || s.f == 0) return;
    const float* w = ev.defined() ? ev.data<float>() : (a.has_values() ? a.values.data<float>() : nullptr);
    if (a.col.dtype() == DType::i64) spmm_t_scatter<int64_t>(a, x, out, w, s.heads, s.f, beta);
    else spmm_t_scatter<int32_t>(a, x, out, w, s.heads, s.f, beta);
    return;
  }
  const float* w = nullptr;
  const int64_t* eid = nullptr;
  if (ev.defined()) {
    w = ev.data<float>();
    eid = t->edge_id.data<int64_t>();
  } else if (t->has_values()) {
    w = t->values.data<float>();
  }
  spmm_dispatch(*t, x, out, w, eid, s.heads, s.f, beta);
}

void sddmm(DeviceContext&, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  require_f32(u, "sddmm", "u");
  require_f32(v, "sddmm", "v");
  const int64_t heads = edge_heads(out, a.nnz(), "sddmm", "out");
  const int64_t f = u.rank() == 0 ? 1 : u.row_numel();
  require_rows_cols(u, a.rows, f, "sddmm", "u");
  require_rows_cols(v, a.cols, f, "sddmm", "v");
  if (f % heads) throw Error("kernels::sddmm: heads (" + std::to_string(heads) + ") must divide F = " + std::to_string(f));
  const int64_t d = f / heads;
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const float* up = u.data<float>();
  const float* vp = v.data<float>();
  float* op = out.data<float>();
  for_col_type(a, [&](const auto* col) {
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t r = 0; r < a.rows; ++r) {
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
        const float* ur = up + r * f;
        const float* vr = vp + static_cast<int64_t>(col[e]) * f;
        for (int64_t h = 0; h < heads; ++h) {
          float acc = 0.f;
          for (int64_t j = h * d; j < (h + 1) * d; ++j) acc += ur[j] * vr[j];
          op[e * heads + h] = acc;
        }
      }
    }
  });
}

void edge_add(DeviceContext&, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  const int64_t heads = edge_heads(out, a.nnz(), "edge_add", "out");
  require_rows_cols(u, a.rows, heads, "edge_add", "u");
  require_rows_cols(v, a.cols, heads, "edge_add", "v");
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const float* up = u.data<float>();
  const float* vp = v.data<float>();
  float* op = out.data<float>();
  for_col_type(a, [&](const auto* col) {
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t r = 0; r < a.rows; ++r)
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
        for (int64_t h = 0; h < heads; ++h) op[e * heads + h] = up[r * heads + h] + vp[static_cast<int64_t>(col[e]) * heads + h];
  });
}

void edge_add_backward(DeviceContext&, const Csr& a, const Tensor& g, const Tensor& gu, const Tensor& gv) {
  const int64_t heads = edge_heads(g, a.nnz(), "edge_add_backward", "grad_out");
  const float* gp = g.data<float>();
  if (gu.defined()) {
    require_rows_cols(gu, a.rows, heads, "edge_add_backward", "grad_u");
    const int64_t* rp = a.row_ptr.data<int64_t>();
    float* o = gu.data<float>();
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t r = 0; r < a.rows; ++r)
      for (int64_t h = 0; h < heads; ++h) {
        float acc = 0.f;
        for (int64_t e = rp[r]; e < rp[r + 1]; ++e) acc += gp[e * heads + h];
        o[r * heads + h] = acc;
      }
  }
  if (gv.defined()) {
    require_rows_cols(gv, a.cols, heads, "edge_add_backward", "grad_v");
    float* o = gv.data<float>();
    Csr built;
    const Csr* t = a.transposed.get();
    if (!t || !t->edge_id.defined()) {
      built = a.transpose();
      t = &built;
    }
    const int64_t* trp = t->row_ptr.data<int64_t>();
    const int64_t* eid = t->edge_id.data<int64_t>();
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t c = 0; c < a.cols; ++c)
      for (int64_t h = 0; h < heads; ++h) {
        float acc = 0.f;
        for (int64_t e = trp[c]; e < trp[c + 1]; ++e) acc += gp[eid[e] * heads + h];
        o[c * heads + h] = acc;
      }
  }
}

void edge_softmax(DeviceContext&, const Csr& a, const Tensor& s, const Tensor& out) {
  const int64_t heads = edge_heads(s, a.nnz(), "edge_softmax", "scores");
  require_numel(out, s.numel(), "edge_softmax", "out");
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const float* sp = s.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t h = 0; h < heads; ++h) {
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) m = std::max(m, sp[e * heads + h]);
      float sum = 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
        float ex = std::exp(sp[e * heads + h] - m);
        op[e * heads + h] = ex;
        sum += ex;
      }
      const float inv = sum > 0.f ? 1.f / sum : 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) op[e * heads + h] *= inv;
    }
}

void edge_softmax_backward(DeviceContext&, const Csr& a, const Tensor& y, const Tensor& gy, const Tensor& gs) {
  const int64_t heads = edge_heads(y, a.nnz(), "edge_softmax_backward", "y");
  require_numel(gy, y.numel(), "edge_softmax_backward", "grad_y");
  require_numel(gs, y.numel(), "edge_softmax_backward", "grad_scores");
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const float* yp = y.data<float>();
  const float* gp = gy.data<float>();
  float* op = gs.data<float>();
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t h = 0; h < heads; ++h) {
      float dot = 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) dot += gp[e * heads + h] * yp[e * heads + h];
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) op[e * heads + h] = yp[e * heads + h] * (gp[e * heads + h] - dot);
    }
}

}  // namespace mlsys::kernels::cpu
