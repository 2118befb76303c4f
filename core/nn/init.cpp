#include "core/nn/init.hpp"

#include <cmath>
#include <vector>

namespace mlsys::nn {

Tensor uniform_tensor(Rng& rng, const Shape& shape, double bound) {
  std::vector<float> v(static_cast<size_t>(shape.numel()));
  for (float& x : v) x = static_cast<float>((2 * rng.uniform() - 1) * bound);
  return Tensor::from_vector(std::move(v), shape);
}

Tensor kaiming_uniform(Rng& rng, const Shape& shape, int64_t fan_in) {
  if (fan_in < 1) throw Error("kaiming_uniform: fan_in must be >= 1, got " + std::to_string(fan_in));
  return uniform_tensor(rng, shape, std::sqrt(6.0 / static_cast<double>(fan_in)));
}

}  // namespace mlsys::nn
