#include "dataopt/math/projection.hpp"

#include <cmath>

#include "core/util/error.hpp"
#include "dataopt/math/rng.hpp"

namespace mlsys::dataopt {

Matrix random_projection(int64_t d, int64_t n, uint64_t seed) {
  if (d <= 0 || n <= 0) throw Error("random_projection: dimensions must be positive");
  Matrix w(d, n);
  Rng rng(seed);
  const double scale = 1.0 / std::sqrt(static_cast<double>(n));
  for (float& x : w.v) x = static_cast<float>(rng.normal() * scale);
  return w;
}

Matrix project(const Matrix& z, const Matrix& w) {
  if (z.cols != w.rows)
    throw Error("projection expects embeddings of dimension " + std::to_string(w.rows) + ", got " +
                std::to_string(z.cols));
  return matmul(z, w);
}

}  // namespace mlsys::dataopt
