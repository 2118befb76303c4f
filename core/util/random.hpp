#pragma once
// xoshiro256** (Blackman & Vigna), the project's one general-purpose generator: fast, and the
// same stream on every platform, unlike the standard library's distributions. How the four state
// words come from a seed is part of each caller's reproducibility contract (generated graphs and
// traces must not change), so seeding and the derived distributions stay with the callers.
#include <cstdint>

namespace mlsys {

// One step of splitmix64: advance by the golden gamma, then mix.
inline uint64_t splitmix64_step(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Xoshiro256 {
 public:
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
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1), 53 bits
  // State for checkpoints.
  const uint64_t* state() const { return s_; }
  void set_state(const uint64_t* s) {
    for (int i = 0; i < 4; ++i) s_[i] = s[i];
  }

 protected:
  uint64_t s_[4] = {};

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
};

}  // namespace mlsys
