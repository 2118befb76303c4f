// Log-softmax, NLL / cross-entropy (masked rows) and cosine-similarity loss on the host.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {
void log_softmax_row(const float* x, float* y, int64_t c) {
  float m = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < c; ++j) m = std::max(m, x[j]);
  float s = 0.f;
  for (int64_t j = 0; j < c; ++j) s += std::exp(x[j] - m);
  const float lse = m + std::log(s);
  for (int64_t j = 0; j < c; ++j) y[j] = x[j] - lse;
}

struct LabelView {
  const int64_t* l64 = nullptr;
  const int32_t* l32 = nullptr;
  const uint8_t* mask = nullptr;
  int64_t classes = 0;
  // Label of row r, or -1 when the row does not count.
  int64_t at(int64_t r) const {
    if (mask && !mask[r]) return -1;
    int64_t y = l64 ? l64[r] : l32[r];
    return y;
  }
};

LabelView labels_of(const Tensor& labels, const Tensor& mask, int64_t n, int64_t c, const char* fn) {
  require_index(labels, fn, "labels");
  require_numel(labels, n, fn, "labels");
  LabelView v;
  v.classes = c;
  if (labels.dtype() == DType::i64) v.l64 = labels.data<int64_t>();
  else v.l32 = labels.data<int32_t>();
  if (mask.defined()) {
    if (mask.dtype() != DType::u8) throw Error(std::string("kernels::") + fn + ": mask must be u8");
    require_numel(mask, n, fn, "mask");
    v.mask = mask.data<uint8_t>();
  }
  for (int64_t r = 0; r < n; ++r) {
    int64_t y = v.at(r);
    if (y >= c)
      throw Error(std::string("kernels::") + fn + ": label " + std::to_string(y) + " at row " + std::to_string(r) +
                  " but only " + std::to_string(c) + " classes");
  }
  return v;
}

int64_t count_rows(const LabelView& v, int64_t n) {
  int64_t k = 0;
  for (int64_t r = 0; r < n; ++r) k += v.at(r) >= 0;
  return k;
}
}  // namespace

void log_softmax(DeviceContext&, const Tensor& x, const Tensor& out) {
  require_f32(x, "log_softmax", "x");
  const int64_t n = x.rows(), c = x.row_numel();
  require_rows_cols(out, n, c, "log_softmax", "out");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (n * c > 32768)
  for (int64_t r = 0; r < n; ++r) log_softmax_row(xp + r * c, op + r * c, c);
}

void log_softmax_backward(DeviceContext&, const Tensor& y, const Tensor& gy, const Tensor& gx) {
  require_f32(y, "log_softmax_backward", "y");
  const int64_t n = y.rows(), c = y.row_numel();
  require_rows_cols(gy, n, c, "log_softmax_backward", "grad_y");
  require_rows_cols(gx, n, c, "log_softmax_backward", "grad_x");
  const float* yp = y.data<float>();
  const float* gp = gy.data<float>();
  float* op = gx.data<float>();
#pragma omp parallel for schedule(static) if (n * c > 32768)
  for (int64_t r = 0; r < n; ++r) {
    float s = 0.f;
    for (int64_t j = 0; j < c; ++j) s += gp[r * c + j];
    for (int64_t j = 0; j < c; ++j) op[r * c + j] = gp[r * c + j] - std::exp(yp[r * c + j]) * s;
  }
}

float nll_loss(DeviceContext&, const Tensor& logp, const Tensor& labels, const Tensor& mask, const Tensor& g) {
  require_f32(logp, "nll_loss", "logp");
  const int64_t n = logp.rows(), c = logp.row_numel();
  LabelView lv = labels_of(labels, mask, n, c, "nll_loss");
  const int64_t count = count_rows(lv, n);
  const float* lp = logp.data<float>();
  double loss = 0.0;
  for (int64_t r = 0; r < n; ++r) {
    int64_t y = lv.at(r);
    if (y >= 0) loss -= lp[r * c + y];
  }
  if (g.defined()) {
    require_rows_cols(g, n, c, "nll_loss", "grad_logp");
    float* gp = g.data<float>();
    std::fill(gp, gp + n * c, 0.f);
    const float w = count ? -1.f / static_cast<float>(count) : 0.f;
    for (int64_t r = 0; r < n; ++r) {
      int64_t y = lv.at(r);
      if (y >= 0) gp[r * c + y] = w;
    }
  }
  return count ? static_cast<float>(loss / static_cast<double>(count)) : 0.f;
}

float cross_entropy(DeviceContext&, const Tensor& logits, const Tensor& labels, const Tensor& mask, const Tensor& g) {
  require_f32(logits, "cross_entropy", "logits");
  const int64_t n = logits.rows(), c = logits.row_numel();
  LabelView lv = labels_of(labels, mask, n, c, "cross_entropy");
  const int64_t count = count_rows(lv, n);
  const float* xp = logits.data<float>();
  float* gp = nullptr;
  if (g.defined()) {
    require_rows_cols(g, n, c, "cross_entropy", "grad_logits");
    gp = g.data<float>();
  }
  const float inv = count ? 1.f / static_cast<float>(count) : 0.f;
  double loss = 0.0;
#pragma omp parallel for reduction(+ : loss) schedule(static) if (n * c > 32768)
  for (int64_t r = 0; r < n; ++r) {
    const int64_t y = lv.at(r);
    if (y < 0) {
      if (gp) std::fill(gp + r * c, gp + (r + 1) * c, 0.f);
      continue;
    }
    const float* x = xp + r * c;
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < c; ++j) m = std::max(m, x[j]);
    float s = 0.f;
    for (int64_t j = 0; j < c; ++j) s += std::exp(x[j] - m);
    const float lse = m + std::log(s);
    loss += lse - x[y];
    if (gp) {
      for (int64_t j = 0; j < c; ++j) gp[r * c + j] = std::exp(x[j] - lse) * inv;
      gp[r * c + y] -= inv;
    }
  }
  return count ? static_cast<float>(loss / static_cast<double>(count)) : 0.f;
}

float cosine_similarity_loss(DeviceContext&, const Tensor& a, const Tensor& b, const Tensor& ga, const Tensor& gb,
                             float eps, const Tensor& w) {
  const auto [n, f] = check_cosine(a, b, ga, gb, w);
  const float* ap = a.data<float>();
  const float* bp = b.data<float>();
  const float* wp = w.defined() ? w.data<float>() : nullptr;
  float* gap = ga.defined() ? ga.data<float>() : nullptr;
  float* gbp = gb.defined() ? gb.data<float>() : nullptr;
  const float inv_n = n ? 1.f / static_cast<float>(n) : 0.f;
  double loss = 0.0;
#pragma omp parallel for reduction(+ : loss) schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    const float* x = ap + r * f;
    const float* y = bp + r * f;
    double xy = 0, xx = 0, yy = 0;
    for (int64_t j = 0; j < f; ++j) {
      xy += static_cast<double>(x[j]) * y[j];
      xx += static_cast<double>(x[j]) * x[j];
      yy += static_cast<double>(y[j]) * y[j];
    }
    const double na = std::max(std::sqrt(xx), static_cast<double>(eps));
    const double nb = std::max(std::sqrt(yy), static_cast<double>(eps));
    const double cs = xy / (na * nb);
    const double wr = wp ? wp[r] : 1.0, scale = wr * inv_n;
    loss += wr * (1.0 - cs);
    // d(-cos)/dx = -(y/(|x||y|) - cos * x/|x|^2), symmetric for y.
    if (gap)
      for (int64_t j = 0; j < f; ++j)
        gap[r * f + j] = static_cast<float>(-(y[j] / (na * nb) - cs * x[j] / (na * na)) * scale);
    if (gbp)
      for (int64_t j = 0; j < f; ++j)
        gbp[r * f + j] = static_cast<float>(-(x[j] / (na * nb) - cs * y[j] / (nb * nb)) * scale);
  }
  return n ? static_cast<float>(loss / static_cast<double>(n)) : 0.f;
}

}  // namespace mlsys::kernels::cpu
