#pragma once
// Counter-based random stream for stochastic rounding: u(seed, row, col) in [0, 1) is a pure
// function of its arguments, so any kernel (scalar, SIMD, one CUDA thread per byte) draws the
// same value for the same element without sharing state.
//   key(seed, row) = high 32 bits of splitmix64_mix(seed + (row + 1) * golden64) (once per row;
//                    core/util/splitmix64.hpp)
//   bits(key, col) = fmix32(key ^ (col * 0x9E3779B9))                         (murmur3 finalizer)
//   u = (bits >> 8) * 2^-24                                                    (24 exact bits)
#include <cstdint>

#include "core/util/hd.hpp"
#include "core/util/splitmix64.hpp"

namespace mlsys::quant {

MLSYS_HD uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

constexpr uint32_t kColumnGolden = 0x9E3779B9u;

MLSYS_HD uint32_t rng_row_key(uint64_t seed, uint64_t row) {
  return uint32_t(splitmix64_mix(seed + (row + 1) * kGoldenGamma) >> 32);
}
MLSYS_HD uint32_t rng_bits(uint32_t row_key, uint32_t col) { return fmix32(row_key ^ (col * kColumnGolden)); }
MLSYS_HD float rng_uniform(uint32_t bits) { return float(bits >> 8) * 5.9604644775390625e-8f; }

}  // namespace mlsys::quant
