#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/kernels/kernel_checks.hpp"
#include "core/quant/rng.hpp"
#include "core/util/random.hpp"
#include "core/util/splitmix64.hpp"

namespace {
struct SeededXoshiro : mlsys::Rng {
  explicit SeededXoshiro(const uint64_t (&s)[4]) { set_state(s); }
};
}  // namespace

TEST_CASE("xoshiro256 star-star follows the published algorithm from a given state") {
  // Outputs for state {1, 2, 3, 4}, computed with an independent big-integer implementation of
  // the reference C code (Blackman & Vigna).
  const uint64_t start[4] = {1, 2, 3, 4};
  SeededXoshiro rng(start);
  CHECK(rng.next() == 11520u);
  CHECK(rng.next() == 0u);
  CHECK(rng.next() == 1509978240u);
  CHECK(rng.next() == 1215971899390074240u);
}

TEST_CASE("xoshiro256 star-star state round-trips for checkpoints, uniform draws stay in the unit interval") {
  const uint64_t start[4] = {mlsys::splitmix64_step(7), mlsys::splitmix64_step(8), 3, 4};
  SeededXoshiro a(start);
  for (int i = 0; i < 100; ++i) a.next();
  SeededXoshiro b(start);
  b.set_state(a.state());
  for (int i = 0; i < 1000; ++i) {
    double u = a.uniform();
    CHECK(u == b.uniform());
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
  }
}

TEST_CASE("Rng seeds from the splitmix64 sequence, and derived streams differ by tag") {
  mlsys::Rng r(42);
  uint64_t expect[4], x = 42;
  for (auto& e : expect) {
    e = mlsys::splitmix64_step(x);
    x += 0x9e3779b97f4a7c15ULL;
  }
  for (int i = 0; i < 4; ++i) CHECK(r.state()[i] == expect[i]);
  CHECK(mlsys::derive_seed(42, 1) != mlsys::derive_seed(42, 2));
  CHECK(mlsys::derive_seed(42, 1, 2) == mlsys::derive_seed(mlsys::derive_seed(42, 1), 2));
}

TEST_CASE("splitmix64 is the published generator, and every seeded stream is built on the one definition") {
  // Vigna's splitmix64.c started at state 0 returns 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
  CHECK(mlsys::splitmix64_step(0) == 0xe220a8397b1dcdafULL);
  CHECK(mlsys::splitmix64_step(mlsys::kGoldenGamma) == 0x6e789e6aa1b965f4ULL);
  CHECK(mlsys::splitmix64_mix(mlsys::kGoldenGamma) == 0xe220a8397b1dcdafULL);
  // The stochastic-rounding row key (core/quant/rng.hpp) and the keyed-dropout row key
  // (core/kernels/kernel_checks.hpp) are these functions, on host and device alike.
  CHECK(mlsys::quant::rng_row_key(5, 2) == uint32_t(mlsys::splitmix64_mix(5 + 3 * mlsys::kGoldenGamma) >> 32));
  CHECK(mlsys::kernels::detail::keyed_row_key(5, 2) == uint32_t(mlsys::derive_seed(5, 2) >> 32));
}

TEST_CASE("Rng permutation is a permutation and normal draws have unit variance") {
  mlsys::Rng r(7);
  auto p = r.permutation(1000);
  std::vector<int> seen(1000, 0);
  for (auto v : p) seen[static_cast<size_t>(v)]++;
  for (int s : seen) CHECK(s == 1);
  double sum = 0, sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double z = r.normal();
    sum += z;
    sq += z * z;
  }
  CHECK(std::abs(sum / n) < 0.01);
  CHECK(std::abs(sq / n - 1.0) < 0.02);
}
