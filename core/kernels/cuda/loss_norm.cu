// Log-softmax, NLL / cross-entropy, cosine loss, LayerNorm and row L2 normalization on CUDA: one thread per row
// (class counts and feature widths of the models here are small).
#include "core/kernels/cuda/cuda_common.cuh"

namespace mlsys::kernels::cuda {

namespace {
__device__ float row_lse(const float* x, int64_t c) {
  float m = -INFINITY, s = 0.f;
  for (int64_t j = 0; j < c; ++j) m = fmaxf(m, x[j]);
  for (int64_t j = 0; j < c; ++j) s += expf(x[j] - m);
  return m + logf(s);
}
__global__ void log_softmax_kernel(const float* x, float* y, int64_t n, int64_t c) {
  MLSYS_GRID_STRIDE(r, n) {
    const float lse = row_lse(x + r * c, c);
    for (int64_t j = 0; j < c; ++j) y[r * c + j] = x[r * c + j] - lse;
  }
}
__global__ void log_softmax_bw_kernel(const float* y, const float* g, float* gx, int64_t n, int64_t c) {
  MLSYS_GRID_STRIDE(r, n) {
    float s = 0.f;
    for (int64_t j = 0; j < c; ++j) s += g[r * c + j];
    for (int64_t j = 0; j < c; ++j) gx[r * c + j] = g[r * c + j] - expf(y[r * c + j]) * s;
  }
}
// Per-block counts of the rows that count (quantity 0) and of those with a label >= c, an error (1).
template <class L>
__global__ void count_rows_kernel(const L* labels, const uint8_t* mask, int64_t n, int64_t c,
                                  unsigned long long* partials) {
  unsigned long long counted = 0, bad = 0;
  MLSYS_GRID_STRIDE(r, n) {
    if (mask && !mask[r]) continue;
    const int64_t y = labels[r];
    if (y >= c) ++bad;
    else if (y >= 0) ++counted;
  }
  counted = block_sum(counted);
  bad = block_sum(bad);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = counted;
    partials[gridDim.x + blockIdx.x] = bad;
  }
}
// logits_mode: x are logits (cross-entropy) or log-probabilities (NLL).
template <class L>
__global__ void nll_kernel(const float* x, const L* labels, const uint8_t* mask, int64_t n, int64_t c, float inv,
                           bool logits_mode, float* grad, double* loss_partials) {
  double loss = 0;
  MLSYS_GRID_STRIDE(r, n) {
    const int64_t y = (mask && !mask[r]) ? -1 : static_cast<int64_t>(labels[r]);
    if (y < 0 || y >= c) {
      if (grad)
        for (int64_t j = 0; j < c; ++j) grad[r * c + j] = 0.f;
      continue;
    }
    const float* xr = x + r * c;
    const float lse = logits_mode ? row_lse(xr, c) : 0.f;
    loss += static_cast<double>(lse - xr[y]);
    if (grad) {
      for (int64_t j = 0; j < c; ++j) grad[r * c + j] = logits_mode ? expf(xr[j] - lse) * inv : 0.f;
      grad[r * c + y] -= inv;
    }
  }
  loss = block_sum(loss);
  if (threadIdx.x == 0) loss_partials[blockIdx.x] = loss;
}

float nll_common(DeviceContext& ctx, const Tensor& x, const Tensor& labels, const Tensor& mask, const Tensor& g,
                 bool logits_mode, const char* fn) {
  require_f32(x, fn, "input");
  require_index(labels, fn, "labels");
  const int64_t n = x.rows(), c = x.row_numel();
  require_numel(labels, n, fn, "labels");
  if (mask.defined()) {
    if (mask.dtype() != DType::u8) throw Error(std::string("kernels::") + fn + ": mask must be u8");
    require_numel(mask, n, fn, "mask");
  }
  if (g.defined()) require_rows_cols(g, n, c, fn, "grad");
  if (n == 0) return 0.f;
  const uint8_t* mp = mask.defined() ? mask.data<uint8_t>() : nullptr;
  const unsigned blocks = reduce_blocks_for(n);
  BlockPartials<unsigned long long, 2> rows(ctx, blocks);
  with_index(labels, [&](const auto* l) {
    count_rows_kernel<<<blocks, kThreads, 0, stream_of(ctx)>>>(l, mp, n, c, rows.ptr());
  });
  check_launch(fn);
  const auto [count, bad] = rows.total();
  if (bad > 0) throw Error(std::string("kernels::") + fn + ": a label is >= the number of classes (" + std::to_string(c) + ")");
  // As the host kernels: 1 / count in float.
  const float inv = count > 0 ? 1.f / static_cast<float>(count) : 0.f;
  BlockPartials<double> loss(ctx, blocks);
  with_index(labels, [&](const auto* l) {
    nll_kernel<<<blocks, kThreads, 0, stream_of(ctx)>>>(x.data<float>(), l, mp, n, c, inv, logits_mode,
                                                        g.defined() ? g.data<float>() : nullptr, loss.ptr());
  });
  check_launch(fn);
  return count > 0 ? static_cast<float>(loss.total()[0] / static_cast<double>(count)) : 0.f;
}

__global__ void cosine_kernel(const float* a, const float* b, const float* w, float* ga, float* gb, int64_t n, int64_t f,
                              float eps, float inv_n, double* loss_partials) {
  double loss = 0;
  MLSYS_GRID_STRIDE(r, n) {
    double xy = 0, xx = 0, yy = 0;
    for (int64_t j = 0; j < f; ++j) {
      const double x = a[r * f + j], y = b[r * f + j];
      xy += x * y, xx += x * x, yy += y * y;
    }
    const double na = fmax(sqrt(xx), static_cast<double>(eps)), nb = fmax(sqrt(yy), static_cast<double>(eps));
    const double cs = xy / (na * nb);
    const double wr = w ? static_cast<double>(w[r]) : 1.0, scale = wr * inv_n;
    loss += wr * (1.0 - cs);
    for (int64_t j = 0; j < f; ++j) {
      const double x = a[r * f + j], y = b[r * f + j];
      if (ga) ga[r * f + j] = static_cast<float>(-(y / (na * nb) - cs * x / (na * na)) * scale);
      if (gb) gb[r * f + j] = static_cast<float>(-(x / (na * nb) - cs * y / (nb * nb)) * scale);
    }
  }
  loss = block_sum(loss);
  if (threadIdx.x == 0) loss_partials[blockIdx.x] = loss;
}

__global__ void layer_norm_kernel(const float* x, const float* gamma, const float* beta, float eps, float* y, float* mean,
                                  float* rstd, int64_t n, int64_t f) {
  MLSYS_GRID_STRIDE(r, n) {
    double s = 0, ss = 0;
    for (int64_t j = 0; j < f; ++j) s += x[r * f + j];
    const double mu = f ? s / f : 0.0;
    for (int64_t j = 0; j < f; ++j) ss += (x[r * f + j] - mu) * (x[r * f + j] - mu);
    const float m = static_cast<float>(mu), rs = static_cast<float>(1.0 / sqrt((f ? ss / f : 0.0) + eps));
    mean[r] = m, rstd[r] = rs;
    for (int64_t j = 0; j < f; ++j) {
      float v = (x[r * f + j] - m) * rs;
      if (gamma) v *= gamma[j];
      if (beta) v += beta[j];
      y[r * f + j] = v;
    }
  }
}
__global__ void layer_norm_bw_x_kernel(const float* x, const float* gamma, const float* mean, const float* rstd,
                                       const float* gy, float* gx, int64_t n, int64_t f) {
  MLSYS_GRID_STRIDE(r, n) {
    double sg = 0, sgx = 0;
    for (int64_t j = 0; j < f; ++j) {
      const float g = gy[r * f + j] * (gamma ? gamma[j] : 1.f);
      sg += g, sgx += static_cast<double>(g) * (x[r * f + j] - mean[r]) * rstd[r];
    }
    const float mg = f ? static_cast<float>(sg / f) : 0.f, mgx = f ? static_cast<float>(sgx / f) : 0.f;
    for (int64_t j = 0; j < f; ++j) {
      const float g = gy[r * f + j] * (gamma ? gamma[j] : 1.f);
      gx[r * f + j] = rstd[r] * (g - mg - (x[r * f + j] - mean[r]) * rstd[r] * mgx);
    }
  }
}
// The gamma / beta gradients of LayerNorm as column sums (f64, as the host kernel): quantity 0 adds
// grad_y * xhat, quantity 1 grad_y.
struct LayerNormParamTerm {
  const float *x, *mean, *rstd, *gy;
  int64_t f;
  __device__ void operator()(int64_t r, int64_t j, double (&acc)[2]) const {
    const float g = gy[r * f + j];
    acc[0] += static_cast<double>(g) * (x[r * f + j] - mean[r]) * rstd[r];
    acc[1] += g;
  }
};
struct AddLayerNormParamGrads {
  float *gg, *gb;
  __device__ void operator()(int64_t j, const double (&sum)[2]) const {
    if (gg) gg[j] += static_cast<float>(sum[0]);
    if (gb) gb[j] += static_cast<float>(sum[1]);
  }
};
__global__ void l2_normalize_kernel(const float* x, float* y, float* norm, int64_t n, int64_t f, float eps) {
  MLSYS_GRID_STRIDE(r, n) {
    double ss = 0;
    for (int64_t j = 0; j < f; ++j) ss += static_cast<double>(x[r * f + j]) * x[r * f + j];
    const float nr = fmaxf(static_cast<float>(sqrt(ss)), eps);
    norm[r] = nr;
    for (int64_t j = 0; j < f; ++j) y[r * f + j] = x[r * f + j] / nr;
  }
}
__global__ void l2_normalize_bw_kernel(const float* y, const float* norm, const float* gy, float* gx, int64_t n,
                                       int64_t f, float eps) {
  MLSYS_GRID_STRIDE(r, n) {
    double dot = 0;
    if (norm[r] > eps)
      for (int64_t j = 0; j < f; ++j) dot += static_cast<double>(y[r * f + j]) * gy[r * f + j];
    const float d = static_cast<float>(dot);
    for (int64_t j = 0; j < f; ++j) gx[r * f + j] = (gy[r * f + j] - y[r * f + j] * d) / norm[r];
  }
}
}  // namespace

void log_softmax(DeviceContext& ctx, const Tensor& x, const Tensor& out) {
  require_f32(x, "log_softmax", "x");
  require_rows_cols(out, x.rows(), x.row_numel(), "log_softmax", "out");
  if (x.rows() == 0) return;
  log_softmax_kernel<<<blocks_for(x.rows()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(), x.rows(),
                                                                            x.row_numel());
  check_launch("log_softmax");
}

void log_softmax_backward(DeviceContext& ctx, const Tensor& y, const Tensor& gy, const Tensor& gx) {
  require_f32(y, "log_softmax_backward", "y");
  require_rows_cols(gy, y.rows(), y.row_numel(), "log_softmax_backward", "grad_y");
  require_rows_cols(gx, y.rows(), y.row_numel(), "log_softmax_backward", "grad_x");
  if (y.rows() == 0) return;
  log_softmax_bw_kernel<<<blocks_for(y.rows()), kThreads, 0, stream_of(ctx)>>>(y.data<float>(), gy.data<float>(),
                                                                               gx.data<float>(), y.rows(), y.row_numel());
  check_launch("log_softmax_backward");
}

float nll_loss(DeviceContext& ctx, const Tensor& logp, const Tensor& labels, const Tensor& mask, const Tensor& g) {
  return nll_common(ctx, logp, labels, mask, g, false, "nll_loss");
}

float cross_entropy(DeviceContext& ctx, const Tensor& logits, const Tensor& labels, const Tensor& mask, const Tensor& g) {
  return nll_common(ctx, logits, labels, mask, g, true, "cross_entropy");
}

float cosine_similarity_loss(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& ga, const Tensor& gb,
                             float eps, const Tensor& w) {
  const auto [n, f] = check_cosine(a, b, ga, gb, w);
  if (n == 0) return 0.f;
  BlockPartials<double> loss(ctx, reduce_blocks_for(n));
  cosine_kernel<<<loss.blocks(), kThreads, 0, stream_of(ctx)>>>(a.data<float>(), b.data<float>(),
                                                                w.defined() ? w.data<float>() : nullptr,
                                                                ga.defined() ? ga.data<float>() : nullptr,
                                                                gb.defined() ? gb.data<float>() : nullptr, n, f, eps,
                                                                1.f / static_cast<float>(n), loss.ptr());
  check_launch("cosine_similarity_loss");
  return static_cast<float>(loss.total()[0] / static_cast<double>(n));
}

void layer_norm(DeviceContext& ctx, const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps, const Tensor& y,
                const Tensor& mean, const Tensor& rstd) {
  const auto [n, f] = check_layer_norm(x, gamma, beta, y, mean, rstd);
  if (n == 0) return;
  layer_norm_kernel<<<blocks_for(n), kThreads, 0, stream_of(ctx)>>>(
      x.data<float>(), gamma.defined() ? gamma.data<float>() : nullptr, beta.defined() ? beta.data<float>() : nullptr, eps,
      y.data<float>(), mean.data<float>(), rstd.data<float>(), n, f);
  check_launch("layer_norm");
}

void layer_norm_backward(DeviceContext& ctx, const Tensor& x, const Tensor& gamma, const Tensor& mean, const Tensor& rstd,
                         const Tensor& gy, const Tensor& gx, const Tensor& gg, const Tensor& gb) {
  require_f32(x, "layer_norm_backward", "x");
  const int64_t n = x.rows(), f = x.row_numel();
  require_rows_cols(gy, n, f, "layer_norm_backward", "grad_y");
  if (gamma.defined()) require_numel(gamma, f, "layer_norm_backward", "gamma");
  if (gx.defined() && n > 0) {
    require_rows_cols(gx, n, f, "layer_norm_backward", "grad_x");
    layer_norm_bw_x_kernel<<<blocks_for(n), kThreads, 0, stream_of(ctx)>>>(
        x.data<float>(), gamma.defined() ? gamma.data<float>() : nullptr, mean.data<float>(), rstd.data<float>(),
        gy.data<float>(), gx.data<float>(), n, f);
  }
  if ((gg.defined() || gb.defined()) && f > 0) {
    if (gg.defined()) require_numel(gg, f, "layer_norm_backward", "grad_gamma");
    if (gb.defined()) require_numel(gb, f, "layer_norm_backward", "grad_beta");
    column_reduce<double, 2>(
        ctx, n, f, LayerNormParamTerm{x.data<float>(), mean.data<float>(), rstd.data<float>(), gy.data<float>(), f},
        AddLayerNormParamGrads{gg.defined() ? gg.data<float>() : nullptr, gb.defined() ? gb.data<float>() : nullptr},
        "layer_norm_backward");
  }
  check_launch("layer_norm_backward");
}

void l2_normalize_rows(DeviceContext& ctx, const Tensor& x, const Tensor& y, const Tensor& norm, float eps) {
  const auto [n, f] = check_l2_normalize(x, y, norm, "l2_normalize_rows");
  if (n == 0) return;
  l2_normalize_kernel<<<blocks_for(n), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), y.data<float>(),
                                                                       norm.data<float>(), n, f, eps);
  check_launch("l2_normalize_rows");
}

void l2_normalize_rows_backward(DeviceContext& ctx, const Tensor& y, const Tensor& norm, const Tensor& gy, const Tensor& gx,
                                float eps) {
  const auto [n, f] = check_l2_normalize(y, gy, norm, "l2_normalize_rows_backward");
  require_rows_cols(gx, n, f, "l2_normalize_rows_backward", "grad_x");
  if (n == 0) return;
  l2_normalize_bw_kernel<<<blocks_for(n), kThreads, 0, stream_of(ctx)>>>(y.data<float>(), norm.data<float>(),
                                                                          gy.data<float>(), gx.data<float>(), n, f, eps);
  check_launch("l2_normalize_rows_backward");
}

}  // namespace mlsys::kernels::cuda
