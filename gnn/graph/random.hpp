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
class Rng : public Xoshiro256 {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto& x : s_) x = seed = splitmix64(seed);
  }
  float uniformf() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>(uniform() * static_cast<double>(n)); }
  double normal() {
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

}  // namespace mlsys::gnn
