#include "dataopt/math/rng.hpp"

#include <cmath>
#include <numeric>

namespace mlsys::dataopt {

uint64_t Rng::next_u64() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u = 0;
  while (u <= 1e-300) u = uniform();
  const double v = uniform();
  const double r = std::sqrt(-2.0 * std::log(u));
  spare_ = r * std::sin(2 * M_PI * v);
  has_spare_ = true;
  return r * std::cos(2 * M_PI * v);
}

int64_t Rng::below(int64_t n) { return n <= 0 ? 0 : static_cast<int64_t>(next_u64() % static_cast<uint64_t>(n)); }

std::vector<int64_t> Rng::permutation(int64_t n) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(below(i + 1))]);
  return p;
}

uint64_t mix_seed(uint64_t seed, uint64_t tag) {
  Rng r(seed ^ (tag * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull));
  return r.next_u64();
}

}  // namespace mlsys::dataopt
