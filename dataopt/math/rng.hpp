#pragma once
// Seeded random numbers with a fixed algorithm (splitmix64 + Box-Muller), so projections, shards
// and initializations are identical across compilers and standard libraries.
#include <cstdint>
#include <vector>

namespace mlsys::dataopt {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next_u64();
  double uniform();               // [0, 1)
  double normal();                // standard normal
  int64_t below(int64_t n);       // uniform integer in [0, n)
  // Fisher-Yates shuffle of 0..n-1.
  std::vector<int64_t> permutation(int64_t n);

 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0;
};

// Derives an independent stream seed from a base seed and a tag (e.g. participant id).
uint64_t mix_seed(uint64_t seed, uint64_t tag);

}  // namespace mlsys::dataopt
