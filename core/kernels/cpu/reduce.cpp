// Row / column / full reductions on the host.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

void row_sum(DeviceContext&, const Tensor& x, const Tensor& out) {
  require_f32(x, "row_sum", "x");
  const int64_t n = x.rows(), f = x.row_numel();
  require_rows_cols(out, n, 1, "row_sum", "out");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    float s = 0.f;
#pragma omp simd reduction(+ : s)
    for (int64_t j = 0; j < f; ++j) s += xp[r * f + j];
    op[r] = s;
  }
}

void row_max(DeviceContext&, const Tensor& x, const Tensor& out) {
  require_f32(x, "row_max", "x");
  const int64_t n = x.rows(), f = x.row_numel();
  require_rows_cols(out, n, 1, "row_max", "out");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (n * f > 32768)
  for (int64_t r = 0; r < n; ++r) {
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < f; ++j) m = std::max(m, xp[r * f + j]);
    op[r] = m;
  }
}

void col_sum(DeviceContext&, const Tensor& x, const Tensor& out, float beta) {
  require_f32(x, "col_sum", "x");
  require_f32(out, "col_sum", "out");
  const int64_t n = x.rows(), f = x.row_numel();
  require_numel(out, f, "col_sum", "out");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  // Per-thread partial sums over row blocks, combined in thread order (deterministic).
  const int nt = (n * f > 65536) ? omp_get_max_threads() : 1;
  std::vector<float> part(static_cast<size_t>(nt * f), 0.f);
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num();
    float* p = part.data() + static_cast<int64_t>(t) * f;
    const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    for (int64_t r = lo; r < hi; ++r)
#pragma omp simd
      for (int64_t j = 0; j < f; ++j) p[j] += xp[r * f + j];
  }
  for (int64_t j = 0; j < f; ++j) {
    float s = 0.f;
    for (int t = 0; t < nt; ++t) s += part[static_cast<size_t>(t * f + j)];
    op[j] = beta == 0.f ? s : beta * op[j] + s;
  }
}

double sum_all(DeviceContext&, const Tensor& x) {
  require_f32(x, "sum_all", "x");
  const float* xp = x.data<float>();
  const int64_t n = x.numel();
  double s = 0.0;
#pragma omp parallel for reduction(+ : s) schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) s += xp[i];
  return s;
}

double sum_squares(DeviceContext&, const Tensor& x) {
  require_f32(x, "sum_squares", "x");
  const float* xp = x.data<float>();
  const int64_t n = x.numel();
  double s = 0.0;
#pragma omp parallel for reduction(+ : s) schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) s += static_cast<double>(xp[i]) * xp[i];
  return s;
}

int64_t count_correct(DeviceContext&, const Tensor& logits, const Tensor& labels, const Tensor& mask) {
  require_f32(logits, "count_correct", "logits");
  require_index(labels, "count_correct", "labels");
  const int64_t n = logits.rows(), c = logits.row_numel();
  require_numel(labels, n, "count_correct", "labels");
  if (mask.defined()) require_numel(mask, n, "count_correct", "mask");
  const float* lp = logits.data<float>();
  const uint8_t* mp = mask.defined() ? mask.data<uint8_t>() : nullptr;
  const bool wide = labels.dtype() == DType::i64;
  const int64_t* l64 = wide ? labels.data<int64_t>() : nullptr;
  const int32_t* l32 = wide ? nullptr : labels.data<int32_t>();
  int64_t correct = 0;
#pragma omp parallel for reduction(+ : correct) schedule(static) if (n * c > 32768)
  for (int64_t r = 0; r < n; ++r) {
    const int64_t y = wide ? l64[r] : l32[r];
    if ((mp && !mp[r]) || y < 0 || c == 0) continue;
    int64_t best = 0;
    for (int64_t j = 1; j < c; ++j)
      if (lp[r * c + j] > lp[r * c + best]) best = j;
    correct += best == y;
  }
  return correct;
}

}  // namespace mlsys::kernels::cpu
