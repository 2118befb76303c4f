#include "dataopt/math/matrix.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

Matrix Matrix::select_rows(const std::vector<int64_t>& idx) const {
  Matrix out(static_cast<int64_t>(idx.size()), cols);
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] < 0 || idx[i] >= rows) throw Error("select_rows: row " + std::to_string(idx[i]) + " out of range");
    std::copy_n(row(idx[i]), cols, out.row(static_cast<int64_t>(i)));
  }
  return out;
}

Matrix matmul(const Matrix& a, const Matrix& b, bool trans_a, bool trans_b) {
  const int64_t m = trans_a ? a.cols : a.rows, k = trans_a ? a.rows : a.cols;
  const int64_t kb = trans_b ? b.cols : b.rows, n = trans_b ? b.rows : b.cols;
  if (k != kb)
    throw Error("matmul: inner dimensions differ (" + std::to_string(k) + " vs " + std::to_string(kb) + ")");
  Matrix c(m, n);
  if (m == 0 || n == 0 || k == 0) return c;
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f, a.v.data(),
              static_cast<int>(a.cols), b.v.data(), static_cast<int>(b.cols), 0.0f, c.v.data(), static_cast<int>(n));
  return c;
}

Matrix l2_normalize_rows(const Matrix& m) {
  Matrix out = m;
  for (int64_t i = 0; i < m.rows; ++i) {
    double s = 0;
    for (int64_t j = 0; j < m.cols; ++j) s += static_cast<double>(m.at(i, j)) * m.at(i, j);
    if (s <= 0) continue;
    const auto inv = static_cast<float>(1.0 / std::sqrt(s));
    for (int64_t j = 0; j < m.cols; ++j) out.at(i, j) *= inv;
  }
  return out;
}

std::vector<double> cholesky_solve(std::vector<double> a, int64_t n, const std::vector<double>& b, int64_t m,
                                   double ridge) {
  if (static_cast<int64_t>(a.size()) != n * n || static_cast<int64_t>(b.size()) != n * m)
    throw Error("cholesky_solve: sizes do not match n=" + std::to_string(n));
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i * n + i)] += ridge;
  // In-place lower Cholesky factor L (A = L L^T).
  for (int64_t j = 0; j < n; ++j) {
    double d = a[static_cast<size_t>(j * n + j)];
    for (int64_t k = 0; k < j; ++k) d -= a[static_cast<size_t>(j * n + k)] * a[static_cast<size_t>(j * n + k)];
    if (!(d > 0))
      throw Error("ridge system is not positive definite (pivot " + std::to_string(j) +
                  "); increase coopt.align.ridge");
    const double l = std::sqrt(d);
    a[static_cast<size_t>(j * n + j)] = l;
    for (int64_t i = j + 1; i < n; ++i) {
      double s = a[static_cast<size_t>(i * n + j)];
      for (int64_t k = 0; k < j; ++k) s -= a[static_cast<size_t>(i * n + k)] * a[static_cast<size_t>(j * n + k)];
      a[static_cast<size_t>(i * n + j)] = s / l;
    }
  }
  std::vector<double> x = b;
  for (int64_t c = 0; c < m; ++c) {
    for (int64_t i = 0; i < n; ++i) {  // forward: L y = b
      double s = x[static_cast<size_t>(i * m + c)];
      for (int64_t k = 0; k < i; ++k) s -= a[static_cast<size_t>(i * n + k)] * x[static_cast<size_t>(k * m + c)];
      x[static_cast<size_t>(i * m + c)] = s / a[static_cast<size_t>(i * n + i)];
    }
    for (int64_t i = n - 1; i >= 0; --i) {  // backward: L^T x = y
      double s = x[static_cast<size_t>(i * m + c)];
      for (int64_t k = i + 1; k < n; ++k) s -= a[static_cast<size_t>(k * n + i)] * x[static_cast<size_t>(k * m + c)];
      x[static_cast<size_t>(i * m + c)] = s / a[static_cast<size_t>(i * n + i)];
    }
  }
  return x;
}

double mean_squared_diff(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) throw Error("mean_squared_diff: shapes differ");
  double s = 0;
  for (size_t i = 0; i < a.v.size(); ++i) s += (static_cast<double>(a.v[i]) - b.v[i]) * (static_cast<double>(a.v[i]) - b.v[i]);
  return a.v.empty() ? 0 : s / static_cast<double>(a.v.size());
}

void column_stats(const Matrix& m, std::vector<float>& mean, std::vector<float>& stdev) {
  std::vector<double> s(static_cast<size_t>(m.cols), 0), q(static_cast<size_t>(m.cols), 0);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) {
      s[static_cast<size_t>(j)] += m.at(i, j);
      q[static_cast<size_t>(j)] += static_cast<double>(m.at(i, j)) * m.at(i, j);
    }
  mean.assign(static_cast<size_t>(m.cols), 0);
  stdev.assign(static_cast<size_t>(m.cols), 1);
  if (m.rows == 0) return;
  for (size_t j = 0; j < s.size(); ++j) {
    const double mu = s[j] / static_cast<double>(m.rows);
    const double var = std::max(0.0, q[j] / static_cast<double>(m.rows) - mu * mu);
    mean[j] = static_cast<float>(mu);
    stdev[j] = static_cast<float>(std::max(std::sqrt(var), 1e-6));
  }
}

void standardize_columns(Matrix& m, const std::vector<float>& mean, const std::vector<float>& stdev) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      m.at(i, j) = (m.at(i, j) - mean[static_cast<size_t>(j)]) / stdev[static_cast<size_t>(j)];
}

}  // namespace mlsys::dataopt
