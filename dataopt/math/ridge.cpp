#include "dataopt/math/ridge.hpp"

#include <algorithm>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

namespace {

// The shift lambda = ridge x mean diagonal of the Gram matrix, so `ridge` is relative to the scale.
double ridge_shift(const Matrix& gram, double ridge) {
  const int64_t n = gram.rows;
  double diag = 0;
  for (int64_t i = 0; i < n; ++i) diag += gram.at(i, i);
  return ridge * (diag > 0 ? diag / static_cast<double>(n) : 1.0);
}

std::vector<double> to_double(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

}  // namespace

Matrix ridge_fit(const Matrix& a, const Matrix& b, double ridge) {
  if (a.rows != b.rows)
    throw Error("alignment: source has " + std::to_string(a.rows) + " rows of S but the reference has " +
                std::to_string(b.rows));
  if (a.rows == 0) throw Error("alignment set S is empty; raise coopt.align.fraction");
  const Matrix ata = matmul(a, a, true, false);
  const Matrix atb = matmul(a, b, true, false);
  std::vector<double> x = cholesky_solve(to_double(ata.v), a.cols, to_double(atb.v), b.cols, ridge_shift(ata, ridge));
  Matrix t(a.cols, b.cols);
  for (size_t i = 0; i < x.size(); ++i) t.v[i] = static_cast<float>(x[i]);
  return t;
}

Alignment fit_alignment(const Matrix& a, const Matrix& b, double ridge, bool intercept) {
  if (a.rows != b.rows)
    throw Error("alignment: source has " + std::to_string(a.rows) + " rows of S but the reference has " +
                std::to_string(b.rows));
  if (a.rows < 2) throw Error("alignment set S has fewer than 2 rows; raise coopt.align.fraction");
  const int64_t m = a.rows, n = a.cols, k = b.cols;
  std::vector<float> mean_a(static_cast<size_t>(n), 0), mean_b, sd;
  column_stats(b, mean_b, sd);
  Matrix ac = a, bc = b;
  if (intercept) {
    column_stats(a, mean_a, sd);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) ac.at(i, j) -= mean_a[static_cast<size_t>(j)];
      for (int64_t j = 0; j < k; ++j) bc.at(i, j) -= mean_b[static_cast<size_t>(j)];
    }
  }
  // One factorization of Ac^T Ac + lambda I serves both the map (right-hand sides Ac^T Bc) and the
  // leverages h_ii = 1/m (intercept) + ac_i (Ac^T Ac + lambda I)^-1 ac_i^T (right-hand sides Ac^T).
  const Matrix g = matmul(ac, ac, true, false);
  const Matrix atb = matmul(ac, bc, true, false);
  const int64_t cols = k + m;
  std::vector<double> rhs(static_cast<size_t>(n * cols));
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < k; ++c) rhs[static_cast<size_t>(j * cols + c)] = atb.at(j, c);
    for (int64_t i = 0; i < m; ++i) rhs[static_cast<size_t>(j * cols + k + i)] = ac.at(i, j);
  }
  const std::vector<double> x = cholesky_solve(to_double(g.v), n, rhs, cols, ridge_shift(g, ridge));
  Alignment out;
  out.t = Matrix(n, k);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t c = 0; c < k; ++c) out.t.at(j, c) = static_cast<float>(x[static_cast<size_t>(j * cols + c)]);
  out.offset = intercept ? mean_b : std::vector<float>(static_cast<size_t>(k), 0);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) out.offset[static_cast<size_t>(j)] -= mean_a[static_cast<size_t>(i)] * out.t.at(i, j);
  const Matrix pred = out.apply(a);
  double press = 0, total = 0;
  for (int64_t i = 0; i < m; ++i) {
    double h = intercept ? 1.0 / static_cast<double>(m) : 0.0;
    for (int64_t j = 0; j < n; ++j) h += ac.at(i, j) * x[static_cast<size_t>(j * cols + k + i)];
    const double keep = std::max(1e-6, 1.0 - h);
    for (int64_t j = 0; j < k; ++j) {
      const double e = (static_cast<double>(b.at(i, j)) - pred.at(i, j)) / keep;
      const double d = static_cast<double>(b.at(i, j)) - mean_b[static_cast<size_t>(j)];
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
