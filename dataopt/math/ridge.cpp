#include "dataopt/math/ridge.hpp"

#include <algorithm>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

Matrix ridge_fit(const Matrix& a, const Matrix& b, double ridge) {
  if (a.rows != b.rows)
    throw Error("alignment: source has " + std::to_string(a.rows) + " rows of S but the reference has " +
                std::to_string(b.rows));
  if (a.rows == 0) throw Error("alignment set S is empty; raise coopt.align.fraction");
  const Matrix ata = matmul(a, a, true, false);
  const Matrix atb = matmul(a, b, true, false);
  const int64_t n = a.cols;
  double diag = 0;
  for (int64_t i = 0; i < n; ++i) diag += ata.at(i, i);
  diag = diag > 0 ? diag / static_cast<double>(n) : 1.0;
  std::vector<double> A(ata.v.begin(), ata.v.end()), B(atb.v.begin(), atb.v.end());
  std::vector<double> x = cholesky_solve(std::move(A), n, B, b.cols, ridge * diag);
  Matrix t(n, b.cols);
  for (size_t i = 0; i < x.size(); ++i) t.v[i] = static_cast<float>(x[i]);
  return t;
}

Alignment fit_alignment(const Matrix& a, const Matrix& b, double ridge, bool intercept) {
  if (a.rows != b.rows)
    throw Error("alignment: source has " + std::to_string(a.rows) + " rows of S but the reference has " +
                std::to_string(b.rows));
  if (a.rows < 2) throw Error("alignment set S has fewer than 2 rows; raise coopt.align.fraction");
  const int64_t m = a.rows, n = a.cols;
  std::vector<float> mean_a(static_cast<size_t>(n), 0), mean_b(static_cast<size_t>(b.cols), 0);
  Matrix ac = a, bc = b;
  if (intercept) {
    std::vector<float> sd;
    column_stats(a, mean_a, sd);
    column_stats(b, mean_b, sd);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) ac.at(i, j) -= mean_a[static_cast<size_t>(j)];
      for (int64_t j = 0; j < b.cols; ++j) bc.at(i, j) -= mean_b[static_cast<size_t>(j)];
    }
  }
  Alignment out;
  out.t = ridge_fit(ac, bc, ridge);
  out.offset = mean_b;
  for (int64_t j = 0; j < b.cols; ++j)
    for (int64_t i = 0; i < n; ++i) out.offset[static_cast<size_t>(j)] -= mean_a[static_cast<size_t>(i)] * out.t.at(i, j);
  // Leverages h_ii = 1/m (intercept) + ac_i (Ac^T Ac + lambda I)^-1 ac_i^T, from the same system.
  const Matrix g = matmul(ac, ac, true, false);
  double diag = 0;
  for (int64_t i = 0; i < n; ++i) diag += g.at(i, i);
  diag = diag > 0 ? diag / static_cast<double>(n) : 1.0;
  std::vector<double> rhs(static_cast<size_t>(n * m));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) rhs[static_cast<size_t>(j * m + i)] = ac.at(i, j);
  const std::vector<double> x = cholesky_solve(std::vector<double>(g.v.begin(), g.v.end()), n, rhs, m, ridge * diag);
  const Matrix pred = out.apply(a);
  std::vector<float> mb, sd;
  column_stats(b, mb, sd);
  double press = 0, total = 0;
  for (int64_t i = 0; i < m; ++i) {
    double h = intercept ? 1.0 / static_cast<double>(m) : 0.0;
    for (int64_t j = 0; j < n; ++j) h += ac.at(i, j) * x[static_cast<size_t>(j * m + i)];
    const double keep = std::max(1e-6, 1.0 - h);
    for (int64_t j = 0; j < b.cols; ++j) {
      const double e = (static_cast<double>(b.at(i, j)) - pred.at(i, j)) / keep;
      const double d = static_cast<double>(b.at(i, j)) - mb[static_cast<size_t>(j)];
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

Matrix Alignment::apply(const Matrix& a) const {
  Matrix y = matmul(a, t);
  for (int64_t i = 0; i < y.rows; ++i)
    for (int64_t j = 0; j < y.cols; ++j) y.at(i, j) += offset[static_cast<size_t>(j)];
  return y;
}

Matrix identity_matrix(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i) m.at(i, i) = 1;
  return m;
}

}  // namespace mlsys::dataopt
