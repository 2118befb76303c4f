#pragma once
// Stochastic rounding, the "sr" codecs: the threshold of value (row, col) is u(seed, row, col) of
// the counter-based stream (rng.hpp), uniform in [0, 1), so E[floor(p + u)] = p: the decode is
// unbiased, and every encode with a fresh seed draws fresh noise.
#include <cstdint>

#include "core/quant/rng.hpp"
#include "core/quant/rounding_rule.hpp"

namespace mlsys::quant::rounding::stochastic {

struct Rule {
  static constexpr const char* kPrefix = "sr";
  static constexpr bool kStochastic = true;
  static constexpr RuleWidth kWidths[] = {
      {1, "1-bit stochastic rounding, per-row min/scale (~25x at F=128, fp16 metadata)"},
      {2, "2-bit stochastic rounding, per-row min/scale"},
      {4, "4-bit stochastic rounding, per-row min/scale"},
      {8, "8-bit stochastic rounding, per-row min/scale"},
  };

  MLSYS_HD static uint32_t row_key(uint64_t seed, uint64_t row) { return rng_row_key(seed, row); }
  MLSYS_HD static float threshold(uint32_t key, uint32_t col) { return rng_uniform(rng_bits(key, col)); }

#ifdef MLSYS_QUANT_AVX2
  // The stream in 8 lanes: lane i of the k-th call hashes column 8k + i. The column's golden
  // multiple advances by an add (col * kColumnGolden wraps mod 2^32 like the scalar product).
  struct Lanes {
    __m256i key, col_golden;
    MLSYS_AVX2 explicit Lanes(uint32_t row_key)
        : key(_mm256_set1_epi32(int(row_key))),
          col_golden(
              _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(int(kColumnGolden)))) {}
    MLSYS_AVX2 __m256 next() {
      __m256i h = _mm256_xor_si256(key, col_golden);
      col_golden = _mm256_add_epi32(col_golden, _mm256_set1_epi32(int(8u * kColumnGolden)));
      // fmix32 (rng.hpp) in 8 lanes
      h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
      h = _mm256_mullo_epi32(h, _mm256_set1_epi32(int(0x85ebca6bu)));
      h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 13));
      h = _mm256_mullo_epi32(h, _mm256_set1_epi32(int(0xc2b2ae35u)));
      h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
      // rng_uniform: the top 24 bits times 2^-24
      return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(h, 8)), _mm256_set1_ps(5.9604644775390625e-8f));
    }
  };
#endif
};

}  // namespace mlsys::quant::rounding::stochastic
