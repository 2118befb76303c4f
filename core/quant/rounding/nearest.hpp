#pragma once
// Round to nearest, the "rn" codecs: the threshold is 1/2 for every value, so q = floor(p + 1/2)
// (ties up) is the nearest level and the error is at most half a step. Deterministic (the seed is
// ignored) and of lower variance than stochastic rounding, but biased: E[decode] != x, so
// unbiased_codec() never picks it (kStochastic = false) and halo exchanges do not use it unless
// made by name. The baseline stochastic rounding is compared against.
#include <cstdint>

#include "core/quant/rounding_rule.hpp"

namespace mlsys::quant::rounding::nearest {

struct Rule {
  static constexpr const char* kPrefix = "rn";
  static constexpr bool kStochastic = false;
  static constexpr RuleWidth kWidths[] = {
      {1, "1-bit round to nearest, per-row min/scale (deterministic, biased)"},
      {2, "2-bit round to nearest, per-row min/scale (deterministic, biased)"},
      {4, "4-bit round to nearest, per-row min/scale (deterministic, biased)"},
      {8, "8-bit round to nearest, per-row min/scale (deterministic, biased)"},
  };

  MLSYS_HD static uint32_t row_key(uint64_t, uint64_t) { return 0; }
  MLSYS_HD static float threshold(uint32_t, uint32_t) { return 0.5f; }

#ifdef MLSYS_QUANT_AVX2
  struct Lanes {
    MLSYS_AVX2 explicit Lanes(uint32_t) {}
    MLSYS_AVX2 __m256 next() { return _mm256_set1_ps(0.5f); }
  };
#endif
};

}  // namespace mlsys::quant::rounding::nearest
