#pragma once
#include <cstdint>
#include <vector>

#include "core/quant/rng.hpp"

namespace mlsys::test {

// Rows of mixed character: random in [lo, hi), a constant row, a row spanning signs, a tiny-range row.
inline std::vector<float> quant_matrix(size_t rows, size_t cols, uint64_t seed, float lo = -2.0f, float hi = 3.0f) {
  std::vector<float> x(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    uint32_t key = quant::rng_row_key(seed, r);
    for (size_t c = 0; c < cols; ++c) {
      float u = quant::rng_uniform(quant::rng_bits(key, uint32_t(c)));
      float v = lo + (hi - lo) * u;
      if (r % 5 == 1) v = 0.1f * float(r);                        // constant row
      if (r % 5 == 3) v = 1000.0f + 1e-3f * u;                    // tiny range far from 0
      if (r % 5 == 4) v = (c % 2 ? -1.0f : 1.0f) * 70000.0f * u;  // beyond fp16 range
      x[r * cols + c] = v;
    }
  }
  return x;
}

}  // namespace mlsys::test
