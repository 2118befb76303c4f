#pragma once
// Step 2 of the method: a fixed random projection W_k (d_k x n) maps participant k's embedding
// dimension d_k to the common dimension n. Entries are i.i.d. N(0, 1/n) from mlsys::Rng seeded with
// derive_seed(projection seed, 0x9000 + k), so every rank regenerates or receives the same W_k.
#include <cstdint>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

// A host tensor [d, n].
Tensor random_projection(int64_t d, int64_t n, uint64_t seed);
// The seed of participant k's projection.
uint64_t projection_seed(uint64_t seed, int k);
// Z [samples, d] -> Z W [samples, n], on ctx.
Tensor project(DeviceContext& ctx, const Tensor& z, const Tensor& w);

}  // namespace mlsys::dataopt
