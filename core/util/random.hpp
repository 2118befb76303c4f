#pragma once
// The project's one general-purpose random number generator: xoshiro256** (Blackman & Vigna),
// seeded by the standard splitmix64 sequence (core/util/splitmix64.hpp), with the distributions the
// modules need. It gives the same stream on every platform and standard library (std::
// distributions do not), which the determinism rule needs: same seed and config, same generated
// trace, graph and initialization.
//
// Independent streams come from derive_seed(seed, tag...) (core/util/splitmix64.hpp: a participant, a block of rows, a node),
// so results do not depend on thread or rank counts. The counter-based bits used by quantization
// on devices (core/quant/rng.hpp) are a different tool: stateless, one hash per element.
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "core/util/splitmix64.hpp"

namespace mlsys {

class Rng {
 public:
  // State words are the first four outputs of the splitmix64 sequence started at `seed`.
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto& x : s_) {
      x = splitmix64_step(seed);
      seed += kGoldenGamma;
    }
  }

  uint64_t next() {
    const uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }           // [0, 1), 53 bits
  float uniformf() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }          // [0, 1), 24 bits
  uint64_t below(uint64_t n) { return static_cast<uint64_t>(uniform() * static_cast<double>(n)); }  // [0, n)
  double exponential(double rate) { return -std::log1p(-uniform()) / rate; }
  // Standard normal by Box-Muller, one value per call (keeps the stream position simple).
  double normal() {
    const double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(6.283185307179586 * u2);
  }
  // Fisher-Yates shuffle in place, and a random permutation of 0..n-1.
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }
  std::vector<int64_t> permutation(int64_t n) {
    std::vector<int64_t> p(static_cast<size_t>(n > 0 ? n : 0));
    std::iota(p.begin(), p.end(), int64_t{0});
    shuffle(p);
    return p;
  }

  // State for checkpoints.
  const uint64_t* state() const { return s_; }
  void set_state(const uint64_t* s) {
    for (int i = 0; i < 4; ++i) s_[i] = s[i];
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4] = {};
};

}  // namespace mlsys
