#include "dataopt/math/ridge.hpp"

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

Matrix identity_matrix(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i) m.at(i, i) = 1;
  return m;
}

}  // namespace mlsys::dataopt
