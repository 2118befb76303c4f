#pragma once
// splitmix64 (Steele, Lea & Flood 2014; the seeding generator Vigna recommends for xoshiro), the
// one definition every seeded stream builds on: mlsys::Rng's seeding and derive_seed
// (core/util/random.hpp), the counter-based stochastic-rounding stream (core/quant/rng.hpp), keyed
// dropout (core/kernels/kernel_checks.hpp) and the quantized exchange's per-link seeds. MLSYS_HD
// compiles each for CUDA device code too, so host and device draw the same bits.
#include <cstdint>

#include "core/util/hd.hpp"

namespace mlsys {

inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// splitmix64's output function: a bijective mix of all 64 bits.
MLSYS_HD uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One step of splitmix64: advance by the golden gamma, then mix.
MLSYS_HD uint64_t splitmix64_step(uint64_t x) { return splitmix64_mix(x + kGoldenGamma); }

// A seed for an independent stream keyed by (seed, tags...): e.g. derive_seed(seed, rank, block).
MLSYS_HD uint64_t derive_seed(uint64_t seed, uint64_t tag) { return splitmix64_step(seed ^ splitmix64_step(tag)); }
template <class... Tags>
MLSYS_HD uint64_t derive_seed(uint64_t seed, uint64_t tag, uint64_t next, Tags... rest) {
  return derive_seed(derive_seed(seed, tag), next, rest...);
}

}  // namespace mlsys
