// The SR kernels are generic over widths 1..8 (sr_format.hpp): codes form a little-endian bit
// stream, so a new width needs no kernel code. Widths 3, 5, 6 and 7 are not shipped as codecs;
// their kernels are called directly here (docs_examples/sr3_codec_test.cpp registers sr3 as a
// codec file would). 3 bits is the width whose codes straddle bytes most often. The kernels are
// called for every rounding rule (rounding.hpp), so a new rule's kernels are held to each other here.
#include "core/quant/sr_format.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/quant/codecs/sr_codec.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "tests/core/quant/quant_test_util.hpp"

using namespace mlsys;
using quant::MetaPrecision;

TEST_CASE("quant/sr_format: codes pack little-endian across bytes, as codec.hpp defines") {
  // Codes 1..7, 0 at 3 bits: the 24-bit number sum q_i << 3i = 0x1F58D1, low byte first.
  std::vector<uint8_t> p(3, 0);
  const uint32_t codes[] = {1, 2, 3, 4, 5, 6, 7, 0};
  for (size_t i = 0; i < 8; ++i) quant::sr_put_code(p.data(), i, 3, codes[i]);
  CHECK(p == std::vector<uint8_t>{0xD1, 0x58, 0x1F});
  for (size_t i = 0; i < 8; ++i) CHECK(quant::sr_get_code(p.data(), i, 3) == codes[i]);
  // Every width reads back what it wrote, at every bit offset, in exactly ceil(n*b/8) bytes.
  for (int bits = quant::kSrMinBits; bits <= quant::kSrMaxBits; ++bits) {
    CAPTURE(bits);
    const size_t n = 37;
    const uint32_t mask = (1u << bits) - 1u;
    std::vector<uint8_t> buf(quant::sr_payload_bytes(1, n, bits), 0);
    for (size_t i = 0; i < n; ++i) quant::sr_put_code(buf.data(), i, bits, uint32_t(i * 7 + 3) & mask);
    for (size_t i = 0; i < n; ++i) CHECK(quant::sr_get_code(buf.data(), i, bits) == (uint32_t(i * 7 + 3) & mask));
  }
  // A width the kernels cannot pack is refused before anything is registered.
  CHECK_THROWS_AS(quant::add_sr_codec(0, "none"), std::logic_error);
  CHECK_THROWS_AS(quant::add_sr_codec(9, "too wide"), std::logic_error);
}

TEST_CASE("quant/sr_format: every width 1..8 and rounding rule agrees bit for bit between reference and fast kernels") {
  const std::string simd = quant::kernels::fast_kernels_vectorized() ? "yes" : "no";
  MESSAGE("fast kernels vectorized on this CPU: " << simd);
  // Columns below, at and above the AVX2 kernels' 8-column step, so that the vector packing and the
  // scalar tail both run, with rows starting at every bit offset.
  const std::pair<size_t, size_t> shapes[] = {{1, 1}, {3, 1}, {7, 13}, {5, 128}, {17, 129}, {64, 7}, {2, 1000}, {9, 8}};
  for (int rule = 0; rule < int(quant::kRoundingRules.size()); ++rule)
    for (int bits = quant::kSrMinBits; bits <= quant::kSrMaxBits; ++bits)
      for (auto m : {MetaPrecision::fp16, MetaPrecision::bf16, MetaPrecision::fp32})
        for (auto [rows, cols] : shapes) {
          CAPTURE(quant::kRoundingRules[size_t(rule)].prefix);
          CAPTURE(bits);
          CAPTURE(int(m));
          CAPTURE(rows);
          CAPTURE(cols);
          auto x = test::quant_matrix(rows, cols, rows * 1000 + cols);
          const size_t wb = quant::sr_wire_bytes(rows, cols, bits, m);
          std::vector<uint8_t> wr(wb + 16, 0xAB), wf(wb + 16, 0xCD);
          quant::kernels::sr_encode_reference(x.data(), rows, cols, bits, m, rule, 42, wr.data());
          quant::kernels::sr_encode_fast(x.data(), rows, cols, bits, m, rule, 42, wf.data());
          CHECK(std::memcmp(wr.data(), wf.data(), wb) == 0);
          CHECK(wr[wb] == 0xAB);  // nothing written past the wire size
          CHECK(wf[wb] == 0xCD);
          std::vector<float> yr(rows * cols + 4, -7.0f), yf(rows * cols + 4, -9.0f);
          quant::kernels::sr_decode_reference(wr.data(), rows, cols, bits, m, yr.data());
          quant::kernels::sr_decode_fast(wr.data(), rows, cols, bits, m, yf.data());
          CHECK(std::memcmp(yr.data(), yf.data(), rows * cols * 4) == 0);
          CHECK(yf[rows * cols] == -9.0f);
          if (m != MetaPrecision::fp32) continue;  // error bound with exact metadata (fp16 saturates: codec_test)
          for (size_t r = 0; r < rows; ++r) {
            const float* xr = x.data() + r * cols;
            const double mn = *std::min_element(xr, xr + cols), mx = *std::max_element(xr, xr + cols);
            const double step = (mx - mn) / double((1 << bits) - 1) * (1 + 1e-5);
            for (size_t c = 0; c < cols; ++c) {
              const double err = std::fabs(double(yr[r * cols + c]) - double(xr[c]));
              if (mx == mn)
                CHECK(err == 0.0);  // constant rows decode exactly
              else
                CHECK(err <= step + 1e-6 * std::fabs(mx));
            }
          }
        }
}
