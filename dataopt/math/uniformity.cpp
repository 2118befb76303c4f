#include "dataopt/math/uniformity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

double uniformity_score(const Matrix& z, double t, bool center) {
  if (z.rows < 2) throw Error("uniformity score needs at least 2 samples");
  Matrix zc = z;
  if (center) {
    std::vector<float> mean, stdev;
    column_stats(z, mean, stdev);
    for (int64_t i = 0; i < zc.rows; ++i)
      for (int64_t j = 0; j < zc.cols; ++j) zc.at(i, j) -= mean[static_cast<size_t>(j)];
  }
  const Matrix psi = l2_normalize_rows(zc);
  const Matrix gram = matmul(psi, psi, false, true);
  // For unit vectors ||a - b||^2 = 2 - 2 a.b; zero rows (dead embeddings) count as distance 0.
  std::vector<double> e;
  e.reserve(static_cast<size_t>(z.rows * (z.rows - 1) / 2));
  double mx = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < z.rows; ++i)
    for (int64_t j = i + 1; j < z.rows; ++j) {
      const double ni = gram.at(i, i), nj = gram.at(j, j);
      const double d2 = std::max(0.0, ni + nj - 2.0 * gram.at(i, j));
      e.push_back(-t * d2);
      mx = std::max(mx, e.back());
    }
  double s = 0;
  for (double x : e) s += std::exp(x - mx);
  return mx + std::log(s / static_cast<double>(e.size()));
}

}  // namespace mlsys::dataopt
