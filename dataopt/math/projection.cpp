#include "dataopt/math/projection.hpp"

#include <cmath>
#include <vector>

#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

Tensor random_projection(int64_t d, int64_t n, uint64_t seed) {
  if (d <= 0 || n <= 0) throw Error("random_projection: dimensions must be positive");
  std::vector<float> w(static_cast<size_t>(d * n));
  Rng rng(seed);
  const double scale = 1.0 / std::sqrt(static_cast<double>(n));
  for (float& x : w) x = static_cast<float>(rng.normal() * scale);
  return host_matrix(std::move(w), d, n);
}

uint64_t projection_seed(uint64_t seed, int k) { return derive_seed(seed, 0x9000 + static_cast<uint64_t>(k)); }

Tensor project(DeviceContext& ctx, const Tensor& z, const Tensor& w) {
  if (z.rank() != 2 || z.dim(1) != w.dim(0))
    throw Error("projection expects embeddings of dimension " + std::to_string(w.dim(0)) + ", got " + z.str());
  return matmul(ctx, z, w);
}

}  // namespace mlsys::dataopt
