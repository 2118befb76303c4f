#include "dataopt/math/uniformity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

double uniformity_score(DeviceContext& ctx, const Tensor& z, double t, bool center) {
  if (z.rank() != 2 || z.rows() < 2) throw Error("uniformity score needs at least 2 samples");
  const int64_t rows = z.dim(0);
  Tensor zc = z;
  if (center) {
    std::vector<float> mean, stdev;
    column_stats(z, mean, stdev);
    zc = copy_on(ctx, z);
    for (float& v : mean) v = -v;
    kernels::add_row_vector(ctx, zc, Tensor::from_vector(mean).to(ctx), zc);
  }
  const Tensor psi = l2_normalize_rows(ctx, zc);
  const std::vector<float> gram = matmul(ctx, psi, psi, false, true).to_vector<float>();
  const float* g = gram.data();
  // For unit vectors ||a - b||^2 = 2 - 2 a.b; zero rows (dead embeddings) count as distance 0.
  std::vector<double> e;
  e.reserve(static_cast<size_t>(rows * (rows - 1) / 2));
  double mx = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = i + 1; j < rows; ++j) {
      const double ni = g[i * rows + i], nj = g[j * rows + j];
      const double d2 = std::max(0.0, ni + nj - 2.0 * g[i * rows + j]);
      e.push_back(-t * d2);
      mx = std::max(mx, e.back());
    }
  double s = 0;
  for (double x : e) s += std::exp(x - mx);
  return mx + std::log(s / static_cast<double>(e.size()));
}

}  // namespace mlsys::dataopt
