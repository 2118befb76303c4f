#pragma once
// Parameter initializations drawn from a caller's mlsys::Rng (core/util/random.hpp), so a network
// built from one seed is the same on every platform and standard library. A layer constructed
// with one draws its weight (row-major) and then its bias from the Rng; layers built one after
// another from the same Rng continue one stream.
//
//   Rng rng(seed);
//   net.add<nn::Linear>(784, 256, nn::KaimingUniform{rng});
#include <cstdint>

#include "core/tensor/tensor.hpp"
#include "core/util/random.hpp"

namespace mlsys::nn {

// Kaiming (He) uniform for ReLU networks: weights U(-sqrt(6 / fan_in), +sqrt(6 / fan_in)), which
// keeps activations at unit scale through ReLUs; biases start at zero.
struct KaimingUniform {
  Rng& rng;
};

// A host f32 tensor (its own memory, not a pool's) of entries U(-bound, bound) drawn in order.
Tensor uniform_tensor(Rng& rng, const Shape& shape, double bound);
// The Kaiming-uniform weight of a layer with `fan_in` inputs per output.
Tensor kaiming_uniform(Rng& rng, const Shape& shape, int64_t fan_in);

}  // namespace mlsys::nn
