// LayerNorm and row L2 normalization, forward and backward, on the host (f64 row sums for stability).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

void layer_norm(DeviceContext&, const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps, const Tensor& y,
                const Tensor& mean, const Tensor& rstd) {
  const auto [n, f] = check_layer_norm(x, gamma, beta, y, mean, rstd);
  const float* xp = x.data<float>();
  const float* gp = gamma.defined() ? gamma.data<float>() : nullptr;
  const float* bp = beta.defined() ? beta.data<float>() : nullptr;
  float* yp = y.data<float>();
  float* mp = mean.data<float>();
  float* rp = rstd.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    const float* xr = xp + r * f;
    double s = 0, ss = 0;
    for (int64_t j = 0; j < f; ++j) s += xr[j];
    const double mu = f ? s / static_cast<double>(f) : 0.0;
    for (int64_t j = 0; j < f; ++j) ss += (xr[j] - mu) * (xr[j] - mu);
    const double var = f ? ss / static_cast<double>(f) : 0.0;
    const float m = static_cast<float>(mu), rs = static_cast<float>(1.0 / std::sqrt(var + eps));
    mp[r] = m;
    rp[r] = rs;
    for (int64_t j = 0; j < f; ++j) {
      float v = (xr[j] - m) * rs;
      if (gp) v *= gp[j];
      if (bp) v += bp[j];
      yp[r * f + j] = v;
    }
  }
}

void layer_norm_backward(DeviceContext&, const Tensor& x, const Tensor& gamma, const Tensor& mean, const Tensor& rstd,
                         const Tensor& gy, const Tensor& gx, const Tensor& gg, const Tensor& gb) {
  require_f32(x, "layer_norm_backward", "x");
  const int64_t n = x.rows(), f = x.row_numel();
  require_rows_cols(gy, n, f, "layer_norm_backward", "grad_y");
  if (gx.defined()) require_rows_cols(gx, n, f, "layer_norm_backward", "grad_x");
  if (gamma.defined()) require_numel(gamma, f, "layer_norm_backward", "gamma");
  if (gg.defined()) require_numel(gg, f, "layer_norm_backward", "grad_gamma");
  if (gb.defined()) require_numel(gb, f, "layer_norm_backward", "grad_beta");
  const float* xp = x.data<float>();
  const float* gam = gamma.defined() ? gamma.data<float>() : nullptr;
  const float* mp = mean.data<float>();
  const float* rp = rstd.data<float>();
  const float* gyp = gy.data<float>();
  if (gx.defined()) {
    float* gxp = gx.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
    for (int64_t r = 0; r < n; ++r) {
      // dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = grad_y * gamma.
      double sg = 0, sgx = 0;
      for (int64_t j = 0; j < f; ++j) {
        const float g = gyp[r * f + j] * (gam ? gam[j] : 1.f);
        const float xh = (xp[r * f + j] - mp[r]) * rp[r];
        sg += g;
        sgx += static_cast<double>(g) * xh;
      }
      const float mg = f ? static_cast<float>(sg / static_cast<double>(f)) : 0.f;
      const float mgx = f ? static_cast<float>(sgx / static_cast<double>(f)) : 0.f;
      for (int64_t j = 0; j < f; ++j) {
        const float g = gyp[r * f + j] * (gam ? gam[j] : 1.f);
        const float xh = (xp[r * f + j] - mp[r]) * rp[r];
        gxp[r * f + j] = rp[r] * (g - mg - xh * mgx);
      }
    }
  }
  if (gg.defined() || gb.defined()) {
    float* ggp = gg.defined() ? gg.data<float>() : nullptr;
    float* gbp = gb.defined() ? gb.data<float>() : nullptr;
#pragma omp parallel for schedule(static) if (n * f > 32768)
    for (int64_t j = 0; j < f; ++j) {
      double a = 0, b = 0;
      for (int64_t r = 0; r < n; ++r) {
        const float g = gyp[r * f + j];
        a += static_cast<double>(g) * (xp[r * f + j] - mp[r]) * rp[r];
        b += g;
      }
      if (ggp) ggp[j] += static_cast<float>(a);
      if (gbp) gbp[j] += static_cast<float>(b);
    }
  }
}

void l2_normalize_rows(DeviceContext&, const Tensor& x, const Tensor& y, const Tensor& norm, float eps) {
  const auto [n, f] = check_l2_normalize(x, y, norm, "l2_normalize_rows");
  const float* xp = x.data<float>();
  float* yp = y.data<float>();
  float* np = norm.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    double ss = 0;
    for (int64_t j = 0; j < f; ++j) ss += static_cast<double>(xp[r * f + j]) * xp[r * f + j];
    const float nr = std::max(static_cast<float>(std::sqrt(ss)), eps);
    np[r] = nr;
    for (int64_t j = 0; j < f; ++j) yp[r * f + j] = xp[r * f + j] / nr;
  }
}

void l2_normalize_rows_backward(DeviceContext&, const Tensor& y, const Tensor& norm, const Tensor& gy, const Tensor& gx,
                                float eps) {
  const auto [n, f] = check_l2_normalize(y, gy, norm, "l2_normalize_rows_backward");
  require_rows_cols(gx, n, f, "l2_normalize_rows_backward", "grad_x");
  const float* yp = y.data<float>();
  const float* np = norm.data<float>();
  const float* gyp = gy.data<float>();
  float* gxp = gx.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    // A clamped row was divided by the constant eps: its Jacobian is I / eps.
    double dot = 0;
    if (np[r] > eps)
      for (int64_t j = 0; j < f; ++j) dot += static_cast<double>(yp[r * f + j]) * gyp[r * f + j];
    const auto d = static_cast<float>(dot);
    for (int64_t j = 0; j < f; ++j) gxp[r * f + j] = (gyp[r * f + j] - yp[r * f + j] * d) / np[r];
  }
}

}  // namespace mlsys::kernels::cpu
