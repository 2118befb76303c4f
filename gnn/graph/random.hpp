#pragma once
// Small deterministic RNGs. Generators and dropout key their streams by (seed, block/node, ...)
// so results do not depend on thread count or on how nodes are split across workers.
#include <cmath>
#include <cstdint>

#include "core/util/random.hpp"

namespace mlsys::gnn {

inline uint64_t splitmix64(uint64_t x) { return splitmix64_step(x); }
inline uint64_t hash_key(uint64_t a, uint64_t b) { return splitmix64(a ^ splitmix64(b)); }
inline uint64_t hash_key(uint64_t a, uint64_t b, uint64_t c) { return hash_key(hash_key(a, b), c); }

// xoshiro256** whose state words are a chain of splitmix64 outputs of the seed.
// TODO(#11): generated graphs move to mlsys::Rng's seeding and normal(); kept until then so the
// re-cut can be checked byte for byte.
class Rng : public mlsys::Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    uint64_t s[4];
    for (auto& x : s) x = seed = splitmix64(seed);
    set_state(s);
  }
  double normal() {
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

}  // namespace mlsys::gnn
