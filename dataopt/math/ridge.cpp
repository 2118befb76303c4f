#include "dataopt/math/ridge.hpp"

#include <algorithm>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace {

// The shift lambda = ridge x mean diagonal of the Gram matrix, so `ridge` is relative to the scale.
double ridge_shift(const std::vector<double>& g, int64_t n, double ridge) {
  double diag = 0;
  for (int64_t i = 0; i < n; ++i) diag += g[static_cast<size_t>(i * n + i)];
  return ridge * (diag > 0 ? diag / static_cast<double>(n) : 1.0);
}

void check_rows(const Tensor& a, const Tensor& b) {
  if (a.rows() != b.rows())
    throw Error("alignment: source has " + std::to_string(a.rows()) + " rows of S but the reference has " +
                std::to_string(b.rows()));
}

}  // namespace

Tensor ridge_fit(DeviceContext& ctx, const Tensor& a, const Tensor& b, double ridge) {
  check_rows(a, b);
  if (a.rows() == 0) throw Error("alignment set S is empty; raise coopt.align.fraction");
  const std::vector<double> ata = to_double(matmul(ctx, a, a, true, false));
  const std::vector<double> atb = to_double(matmul(ctx, a, b, true, false));
  const double shift = ridge_shift(ata, a.dim(1), ridge);
  const std::vector<double> x = cholesky_solve(ata, a.dim(1), atb, b.dim(1), shift);
  std::vector<float> t(x.begin(), x.end());
  return host_matrix(std::move(t), a.dim(1), b.dim(1));
}

Alignment fit_alignment(DeviceContext& ctx, const Tensor& a, const Tensor& b, double ridge, bool intercept) {
  check_rows(a, b);
  if (a.rows() < 2) throw Error("alignment set S has fewer than 2 rows; raise coopt.align.fraction");
  const int64_t m = a.dim(0), n = a.dim(1), k = b.dim(1);
  std::vector<float> mean_a(static_cast<size_t>(n), 0), mean_b, sd;
  column_stats(b, mean_b, sd);
  // A and B on the host (the leverages below read every row), centered when asked; the products
  // run on ctx.
  std::vector<float> av = a.to_vector<float>(), bv = b.to_vector<float>();
  if (intercept) {
    column_stats(a, mean_a, sd);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) av[static_cast<size_t>(i * n + j)] -= mean_a[static_cast<size_t>(j)];
      for (int64_t j = 0; j < k; ++j) bv[static_cast<size_t>(i * k + j)] -= mean_b[static_cast<size_t>(j)];
    }
  }
  const float* acp = av.data();
  const Tensor ac = host_matrix(av, m, n), bc = host_matrix(bv, m, k);
  // One factorization of Ac^T Ac + lambda I serves both the map (right-hand sides Ac^T Bc) and the
  // leverages h_ii = 1/m (intercept) + ac_i (Ac^T Ac + lambda I)^-1 ac_i^T (right-hand sides Ac^T).
  const std::vector<double> g = to_double(matmul(ctx, ac, ac, true, false));
  const std::vector<double> atb = to_double(matmul(ctx, ac, bc, true, false));
  const double* atbp = atb.data();
  const int64_t cols = k + m;
  std::vector<double> rhs(static_cast<size_t>(n * cols));
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < k; ++c) rhs[static_cast<size_t>(j * cols + c)] = atbp[j * k + c];
    for (int64_t i = 0; i < m; ++i) rhs[static_cast<size_t>(j * cols + k + i)] = acp[i * n + j];
  }
  const std::vector<double> x = cholesky_solve(g, n, rhs, cols, ridge_shift(g, n, ridge));
  Alignment out;
  std::vector<float> t(static_cast<size_t>(n * k));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t c = 0; c < k; ++c) t[static_cast<size_t>(j * k + c)] = static_cast<float>(x[static_cast<size_t>(j * cols + c)]);
  out.offset = intercept ? mean_b : std::vector<float>(static_cast<size_t>(k), 0);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) out.offset[static_cast<size_t>(j)] -= mean_a[static_cast<size_t>(i)] * t[static_cast<size_t>(i * k + j)];
  out.t = host_matrix(std::move(t), n, k);
  const std::vector<float> pred = out.apply(ctx, a).to_vector<float>(), bh = b.to_vector<float>();
  const float* pp = pred.data();
  const float* bp = bh.data();
  double press = 0, total = 0;
  for (int64_t i = 0; i < m; ++i) {
    double h = intercept ? 1.0 / static_cast<double>(m) : 0.0;
    for (int64_t j = 0; j < n; ++j) h += acp[i * n + j] * x[static_cast<size_t>(j * cols + k + i)];
    const double keep = std::max(1e-6, 1.0 - h);
    for (int64_t j = 0; j < k; ++j) {
      const double e = (static_cast<double>(bp[i * k + j]) - pp[i * k + j]) / keep;
      const double d = static_cast<double>(bp[i * k + j]) - mean_b[static_cast<size_t>(j)];
      press += e * e;
      total += d * d;
    }
  }
  out.loo_r2 = total > 0 ? 1.0 - press / total : 0.0;
  return out;
}

Alignment identity_alignment(int64_t n) {
  Alignment a;
  a.t = identity_matrix(n);
  a.offset.assign(static_cast<size_t>(n), 0.0f);
  return a;
}

Tensor Alignment::apply(DeviceContext& ctx, const Tensor& a) const {
  Tensor y = matmul(ctx, a, t);
  if (std::any_of(offset.begin(), offset.end(), [](float v) { return v != 0; }))
    kernels::add_row_vector(ctx, y, Tensor::from_vector(offset).to(ctx), y);
  return y;
}

Tensor identity_matrix(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n * n), 0.f);
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i * n + i)] = 1;
  return host_matrix(std::move(v), n, n);
}

}  // namespace mlsys::dataopt
