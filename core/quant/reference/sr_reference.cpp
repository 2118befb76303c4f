// The plain definition of the per-row min/scale codecs (codec.hpp) under each rounding rule
// (rounding.hpp): one value at a time, no tricks. The fast and CUDA kernels are tested against this.
#include <cstring>

#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/quant/sr_format.hpp"

namespace mlsys::quant::kernels {
namespace {

template <class Rule>
void encode(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed, uint8_t* out) {
  const size_t fb = meta_field_bytes(m);
  uint8_t* payload = out + sr_meta_bytes(rows, m);
  std::memset(payload, 0, sr_payload_bytes(rows, cols, bits));
  const float levels = float((1u << bits) - 1u);
  for (size_t r = 0; r < rows; ++r) {
    const float* row = x + r * cols;
    float mn = row[0], mx = row[0];
    for (size_t c = 1; c < cols; ++c) {
      mn = row[c] < mn ? row[c] : mn;
      mx = row[c] > mx ? row[c] : mx;
    }
    SrRowMeta meta = sr_row_meta(mn, mx, row[0], bits, m);
    store_field(out + r * 2 * fb, meta.min_field, fb);
    store_field(out + r * 2 * fb + fb, meta.scale_field, fb);
    const uint32_t key = Rule::row_key(seed, r);
    for (size_t c = 0; c < cols; ++c) {
      uint32_t q;
      if (meta.constant) {
        q = c == 0 ? meta.first_code : 0u;
      } else {
        q = uint32_t(sr_quantize(row[c], meta.mn, meta.s, Rule::threshold(key, uint32_t(c)), levels));
      }
      sr_put_code(payload, r * cols + c, bits, q);
    }
  }
}

}  // namespace

void sr_encode_reference(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                         uint8_t* out) {
  with_rounding_rule(rule, [&](auto r) { encode<decltype(r)>(x, rows, cols, bits, m, seed, out); });
}

void sr_decode_reference(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out) {
  const size_t fb = meta_field_bytes(m);
  const uint8_t* payload = in + sr_meta_bytes(rows, m);
  for (size_t r = 0; r < rows; ++r) {
    uint32_t min_field = load_field(in + r * 2 * fb, fb);
    uint32_t scale_field = load_field(in + r * 2 * fb + fb, fb);
    float* row = out + r * cols;
    auto code = [&](size_t c) { return sr_get_code(payload, r * cols + c, bits); };
    if (sr_is_constant_field(scale_field, m)) {
      float v = sr_constant_value(min_field, scale_field, code(0), m);
      for (size_t c = 0; c < cols; ++c) row[c] = v;
      continue;
    }
    float mn = meta_field_value(min_field, m), s = meta_field_value(scale_field, m);
    for (size_t c = 0; c < cols; ++c) row[c] = sr_dequantize(code(c), mn, s);
  }
}

void half_encode_reference(const float* x, size_t n, bool bf16, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t h = bf16 ? f32_to_bf16(x[i]) : f32_to_f16(x[i]);
    out[2 * i] = uint8_t(h);
    out[2 * i + 1] = uint8_t(h >> 8);
  }
}

void half_decode_reference(const uint8_t* in, size_t n, bool bf16, float* out) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t h = uint16_t(in[2 * i] | (in[2 * i + 1] << 8));
    out[i] = bf16 ? bf16_to_f32(h) : f16_to_f32(h);
  }
}

}  // namespace mlsys::quant::kernels
