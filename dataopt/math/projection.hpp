#pragma once
// Step 2 of the method: a fixed random projection W_k (d_k x n) maps participant k's embedding
// dimension d_k to the common dimension n. Entries are i.i.d. N(0, 1/n) from the seeded Rng
// (seed = mix_seed(projection seed, k)), so every rank regenerates or receives the same W_k.
#include <cstdint>

#include "dataopt/math/matrix.hpp"

namespace mlsys::dataopt {

Matrix random_projection(int64_t d, int64_t n, uint64_t seed);
// Z (samples x d) -> Z W (samples x n).
Matrix project(const Matrix& z, const Matrix& w);

}  // namespace mlsys::dataopt
