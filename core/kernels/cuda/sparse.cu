// GEMM (cuBLAS) and the CSR kernels on CUDA. SpMM and SpMM^T with one value per edge (GCN,
// GraphSAGE) go through cuSPARSE (cusparse_spmm.hpp); products whose values are read through edge
// ids or that have several heads (GAT) run the hand kernel: one warp per output row, lanes stride
// over the features, so X rows are read coalesced and no atomics are needed. spmm_t uses the
// cached transpose (or A itself when symmetric) and falls back to atomics only without one.
#include "core/kernels/cuda/cuda_common.cuh"
#include "core/kernels/cuda/cusparse_spmm.hpp"

namespace mlsys::kernels::cuda {

void gemm(DeviceContext& ctx, const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c, float alpha,
          float beta) {
  const auto [m, n, k] = check_gemm(a, ta, b, tb, c);
  if (m == 0 || n == 0) return;
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
  cublasStatus_t st = cublasSgemm(blas_of(ctx), tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                                  static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha, b.data<float>(),
                                  static_cast<int>(std::max<int64_t>(1, b.dim(1))), a.data<float>(),
                                  static_cast<int>(std::max<int64_t>(1, a.dim(1))), &beta, c.data<float>(),
                                  static_cast<int>(n));
  if (st != CUBLAS_STATUS_SUCCESS) throw Error("cublasSgemm failed with status " + std::to_string(static_cast<int>(st)));
}

namespace {

template <class I>
__global__ void spmm_warp_kernel(int64_t rows, const int64_t* rp, const I* col, const float* w, const int64_t* eid,
                                 int64_t wstride, int64_t d, const float* x, float* out, int64_t f, float beta) {
  const int64_t warp = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const int64_t r = warp;
  for (int64_t j = lane; j < f; j += 32) {
    const int64_t h = wstride > 1 ? j / d : 0;
    float acc = 0.f;
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
      float we = 1.f;
      if (w) we = w[(eid ? eid[e] : e) * wstride + h];
      acc += we * x[static_cast<int64_t>(col[e]) * f + j];
    }
    float* o = out + r * f + j;
    *o = beta == 0.f ? acc : beta * *o + acc;
  }
}

template <class I>
__global__ void spmm_t_atomic_kernel(int64_t rows, const int64_t* rp, const I* col, const float* w, int64_t wstride,
                                     int64_t d, const float* x, float* out, int64_t f) {
  const int64_t warp = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  for (int64_t e = rp[warp]; e < rp[warp + 1]; ++e)
    for (int64_t j = lane; j < f; j += 32) {
      const float we = w ? w[e * wstride + (wstride > 1 ? j / d : 0)] : 1.f;
      atomicAdd(out + static_cast<int64_t>(col[e]) * f + j, we * x[warp * f + j]);
    }
}

__global__ void scale_kernel(float* p, int64_t n, float s) {
  MLSYS_GRID_STRIDE(i, n) p[i] = s == 0.f ? 0.f : s * p[i];
}

void run_spmm(DeviceContext& ctx, const Csr& a, const float* w, const int64_t* eid, int64_t heads, const Tensor& x,
              const Tensor& out, int64_t f, float beta) {
  if (a.rows == 0 || f == 0) return;
  const int64_t ws = std::max<int64_t>(heads, 1), d = f / ws;
  if (ws == 1 && !eid && spmm_cusparse(ctx, a, w, x, out, f, beta)) return;
  const unsigned grid = static_cast<unsigned>((a.rows * 32 + kThreads - 1) / kThreads);
  with_index(a.col, [&](const auto* col) {
    spmm_warp_kernel<<<grid, kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(), col, w, eid, ws, d,
                                                            x.data<float>(), out.data<float>(), f, beta);
  });
  check_launch("spmm");
}

}  // namespace

void spmm(DeviceContext& ctx, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  SpmmShape s = check_spmm(a, x, out, ev, false, "spmm");
  const float* w = ev.defined() ? ev.data<float>() : (a.has_values() ? a.values.data<float>() : nullptr);
  run_spmm(ctx, a, w, nullptr, s.heads, x, out, s.f, beta);
}

void spmm_t(DeviceContext& ctx, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  SpmmShape s = check_spmm(a, x, out, ev, true, "spmm_t");
  if (a.symmetric && !ev.defined() && a.rows == a.cols) {
    run_spmm(ctx, a, a.has_values() ? a.values.data<float>() : nullptr, nullptr, 0, x, out, s.f, beta);
    return;
  }
  // A transpose kept without edge ids (Csr::with_transpose(false)) serves only products without
  // per-edge values.
  if (const Csr* t = a.transposed.get(); t && (!ev.defined() || t->edge_id.defined())) {
    const float* w = ev.defined() ? ev.data<float>() : (t->has_values() ? t->values.data<float>() : nullptr);
    run_spmm(ctx, *t, w, ev.defined() ? t->edge_id.data<int64_t>() : nullptr, s.heads, x, out, s.f, beta);
    return;
  }
  // No transpose cached: scale, then scatter with atomics (correct, not deterministic in order).
  if (out.numel() == 0) return;
  scale_kernel<<<blocks_for(out.numel()), kThreads, 0, stream_of(ctx)>>>(out.data<float>(), out.numel(), beta);
  if (a.rows == 0 || s.f == 0) return;
  const float* w = ev.defined() ? ev.data<float>() : (a.has_values() ? a.values.data<float>() : nullptr);
  const int64_t ws = std::max<int64_t>(s.heads, 1);
  const unsigned grid = static_cast<unsigned>((a.rows * 32 + kThreads - 1) / kThreads);
  with_index(a.col, [&](const auto* col) {
    spmm_t_atomic_kernel<<<grid, kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(), col, w, ws, s.f / ws,
                                                                x.data<float>(), out.data<float>(), s.f);
  });
  check_launch("spmm_t");
}

namespace {
template <class I>
__global__ void sddmm_kernel(int64_t rows, const int64_t* rp, const I* col, const float* u, const float* v, float* out,
                             int64_t f, int64_t heads) {
  const int64_t d = f / heads;
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
      for (int64_t h = 0; h < heads; ++h) {
        float acc = 0.f;
        for (int64_t j = h * d; j < (h + 1) * d; ++j) acc += u[r * f + j] * v[static_cast<int64_t>(col[e]) * f + j];
        out[e * heads + h] = acc;
      }
  }
}
template <class I>
__global__ void edge_add_kernel(int64_t rows, const int64_t* rp, const I* col, const float* u, const float* v,
                                float* out, int64_t heads) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
      for (int64_t h = 0; h < heads; ++h) out[e * heads + h] = u[r * heads + h] + v[static_cast<int64_t>(col[e]) * heads + h];
  }
}
// Row sums of per-edge values; through eid when given (transposed view).
__global__ void edge_row_sum_kernel(int64_t rows, const int64_t* rp, const int64_t* eid, const float* g, float* out,
                                    int64_t heads) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t h = 0; h < heads; ++h) {
      float acc = 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) acc += g[(eid ? eid[e] : e) * heads + h];
      out[r * heads + h] = acc;
    }
  }
}
template <class I>
__global__ void edge_col_atomic_kernel(int64_t rows, const int64_t* rp, const I* col, const float* g, float* out,
                                       int64_t heads) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
      for (int64_t h = 0; h < heads; ++h) atomicAdd(out + static_cast<int64_t>(col[e]) * heads + h, g[e * heads + h]);
  }
}
__global__ void edge_softmax_kernel(int64_t rows, const int64_t* rp, const float* s, float* out, int64_t heads) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t h = 0; h < heads; ++h) {
      float m = -INFINITY, sum = 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) m = fmaxf(m, s[e * heads + h]);
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) sum += expf(s[e * heads + h] - m);
      const float inv = sum > 0.f ? 1.f / sum : 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) out[e * heads + h] = expf(s[e * heads + h] - m) * inv;
    }
  }
}
__global__ void edge_softmax_bw_kernel(int64_t rows, const int64_t* rp, const float* y, const float* g, float* out,
                                       int64_t heads) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t h = 0; h < heads; ++h) {
      float dot = 0.f;
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) dot += g[e * heads + h] * y[e * heads + h];
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e) out[e * heads + h] = y[e * heads + h] * (g[e * heads + h] - dot);
    }
  }
}
}  // namespace

void sddmm(DeviceContext& ctx, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  require_f32(u, "sddmm", "u");
  const int64_t heads = edge_heads(out, a.nnz(), "sddmm", "out");
  const int64_t f = u.rank() == 0 ? 1 : u.row_numel();
  require_rows_cols(u, a.rows, f, "sddmm", "u");
  require_rows_cols(v, a.cols, f, "sddmm", "v");
  if (f % heads) throw Error("kernels::sddmm: heads must divide F");
  if (a.rows == 0) return;
  with_index(a.col, [&](const auto* col) {
    sddmm_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(), col,
                                                                      u.data<float>(), v.data<float>(), out.data<float>(), f, heads);
  });
  check_launch("sddmm");
}

void edge_add(DeviceContext& ctx, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  const int64_t heads = edge_heads(out, a.nnz(), "edge_add", "out");
  require_rows_cols(u, a.rows, heads, "edge_add", "u");
  require_rows_cols(v, a.cols, heads, "edge_add", "v");
  if (a.rows == 0) return;
  with_index(a.col, [&](const auto* col) {
    edge_add_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(), col,
                                                                         u.data<float>(), v.data<float>(), out.data<float>(), heads);
  });
  check_launch("edge_add");
}

void edge_add_backward(DeviceContext& ctx, const Csr& a, const Tensor& g, const Tensor& gu, const Tensor& gv) {
  const int64_t heads = edge_heads(g, a.nnz(), "edge_add_backward", "grad_out");
  if (gu.defined() && a.rows > 0) {
    require_rows_cols(gu, a.rows, heads, "edge_add_backward", "grad_u");
    edge_row_sum_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(), nullptr,
                                                                             g.data<float>(), gu.data<float>(), heads);
  }
  if (gv.defined() && a.cols > 0) {
    require_rows_cols(gv, a.cols, heads, "edge_add_backward", "grad_v");
    if (const Csr* t = a.transposed.get(); t && t->edge_id.defined()) {
      edge_row_sum_kernel<<<blocks_for(t->rows), kThreads, 0, stream_of(ctx)>>>(
          t->rows, t->row_ptr.data<int64_t>(), t->edge_id.data<int64_t>(), g.data<float>(), gv.data<float>(), heads);
    } else {
      cudaMemsetAsync(gv.raw(), 0, gv.nbytes(), stream_of(ctx));
      if (a.rows > 0)
        with_index(a.col, [&](const auto* col) {
          edge_col_atomic_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(
              a.rows, a.row_ptr.data<int64_t>(), col, g.data<float>(), gv.data<float>(), heads);
        });
    }
  }
  check_launch("edge_add_backward");
}

void edge_softmax(DeviceContext& ctx, const Csr& a, const Tensor& s, const Tensor& out) {
  const int64_t heads = edge_heads(s, a.nnz(), "edge_softmax", "scores");
  require_numel(out, s.numel(), "edge_softmax", "out");
  if (a.rows == 0) return;
  edge_softmax_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(a.rows, a.row_ptr.data<int64_t>(),
                                                                           s.data<float>(), out.data<float>(), heads);
  check_launch("edge_softmax");
}

void edge_softmax_backward(DeviceContext& ctx, const Csr& a, const Tensor& y, const Tensor& gy, const Tensor& gs) {
  const int64_t heads = edge_heads(y, a.nnz(), "edge_softmax_backward", "y");
  require_numel(gy, y.numel(), "edge_softmax_backward", "grad_y");
  require_numel(gs, y.numel(), "edge_softmax_backward", "grad_scores");
  if (a.rows == 0) return;
  edge_softmax_bw_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(
      a.rows, a.row_ptr.data<int64_t>(), y.data<float>(), gy.data<float>(), gs.data<float>(), heads);
  check_launch("edge_softmax_backward");
}

namespace {
template <class I>
__global__ void gather_kernel(const float* src, const I* idx, float* out, int64_t m, int64_t f) {
  MLSYS_GRID_STRIDE(i, m * f) out[i] = src[static_cast<int64_t>(idx[i / f]) * f + i % f];
}
template <class I>
__global__ void scatter_add_kernel(const float* src, const I* idx, float* out, int64_t m, int64_t f) {
  MLSYS_GRID_STRIDE(i, m * f) atomicAdd(out + static_cast<int64_t>(idx[i / f]) * f + i % f, src[i]);
}
void check_gs(const Tensor& src, const Tensor& idx, const Tensor& out, int64_t indexed, const char* fn) {
  require_index(idx, fn, "idx");
  require_f32(src, fn, "src");
  require_f32(out, fn, "out");
  if (src.row_numel() != out.row_numel()) throw Error(std::string("kernels::") + fn + ": src and out rows differ in size");
  require_numel(idx, indexed, fn, "idx");
}
}  // namespace

// Indices are not range-checked on the device (that would need a sync); callers validate them.
void gather_rows(DeviceContext& ctx, const Tensor& src, const Tensor& idx, const Tensor& out) {
  check_gs(src, idx, out, out.rows(), "gather_rows");
  const int64_t f = src.row_numel(), m = out.rows();
  if (m * f == 0) return;
  with_index(idx, [&](const auto* ix) {
    gather_kernel<<<blocks_for(m * f), kThreads, 0, stream_of(ctx)>>>(src.data<float>(), ix, out.data<float>(), m, f);
  });
  check_launch("gather_rows");
}

void scatter_add_rows(DeviceContext& ctx, const Tensor& src, const Tensor& idx, const Tensor& out) {
  check_gs(src, idx, out, src.rows(), "scatter_add_rows");
  const int64_t f = src.row_numel(), m = src.rows();
  if (m * f == 0) return;
  with_index(idx, [&](const auto* ix) {
    scatter_add_kernel<<<blocks_for(m * f), kThreads, 0, stream_of(ctx)>>>(src.data<float>(), ix, out.data<float>(), m, f);
  });
  check_launch("scatter_add_rows");
}

}  // namespace mlsys::kernels::cuda
