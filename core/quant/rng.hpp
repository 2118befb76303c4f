#pragma once
// Counter-based random stream for stochastic rounding: u(seed, row, col) in [0, 1) is a pure
// function of its arguments, so any kernel (scalar, SIMD, one CUDA thread per byte) draws the
// same value for the same element without sharing state.
//   key(seed, row) = high 32 bits of splitmix64(seed + (row + 1) * golden64)   (once per row)
//   bits(key, col) = fmix32(key ^ (col * 0x9E3779B9))                         (murmur3 finalizer)
//   u = (bits >> 8) * 2^-24                                                    (24 exact bits)
#include <cstdint>

#include "core/quant/hd.hpp"

namespace mlsys::quant {

MLSYS_HD uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

MLSYS_HD uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr uint32_t kColumnGolden = 0x9E3779B9u;

MLSYS_HD uint32_t rng_row_key(uint64_t seed, uint64_t row) {
  return uint32_t(splitmix64(seed + (row + 1) * 0x9E3779B97F4A7C15ull) >> 32);
}
MLSYS_HD uint32_t rng_bits(uint32_t row_key, uint32_t col) { return fmix32(row_key ^ (col * kColumnGolden)); }
MLSYS_HD float rng_uniform(uint32_t bits) { return float(bits >> 8) * 5.9604644775390625e-8f; }

}  // namespace mlsys::quant
