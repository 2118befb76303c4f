#pragma once
// The SR wire format's per-row arithmetic (layout: see codec.hpp), written once and shared by the
// reference, vectorized CPU and CUDA kernels so that they agree bit for bit. The format (per-row
// min/scale, b-bit codes) is the same under every rounding rule (rounding_rule.hpp): stochastic
// rounding gave it its name, round to nearest ("rn" codecs) writes the same layout.
#include <cfloat>
#include <cstddef>
#include <cstdint>

#include "core/quant/half.hpp"
#include "core/util/hd.hpp"
#include "core/quant/meta_precision.hpp"

namespace mlsys::quant {

MLSYS_HD size_t meta_field_bytes(MetaPrecision m) { return m == MetaPrecision::fp32 ? 4 : 2; }
MLSYS_HD size_t sr_meta_bytes(size_t rows, MetaPrecision m) { return rows * 2 * meta_field_bytes(m); }
MLSYS_HD size_t sr_payload_bytes(size_t rows, size_t cols, int bits) { return (rows * cols * size_t(bits) + 7) / 8; }
MLSYS_HD size_t sr_wire_bytes(size_t rows, size_t cols, int bits, MetaPrecision m) {
  return sr_meta_bytes(rows, m) + sr_payload_bytes(rows, cols, bits);
}

// What encode stores for one row and the values the kernels compute with.
struct SrRowMeta {
  bool constant;         // mx == mn: the row's value is stored exactly
  float mn, s;           // effective min and scale (exactly what decode reads back)
  uint32_t min_field;    // stored bits of the min field
  uint32_t scale_field;  // stored bits of the scale field (sign bit set: constant row)
  uint32_t first_code;   // constant row, 16-bit metadata: the row's first code (bit 15 of the value)
};

// Cvt: the fp16 conversions (SoftF16, or F16C in the AVX2 kernels; both round identically).
template <class Cvt = SoftF16>
MLSYS_HD float meta_field_value(uint32_t field, MetaPrecision m) {
  if (m == MetaPrecision::fp32) return bits_float(field);
  if (m == MetaPrecision::fp16) return Cvt::from(uint16_t(field));
  return bf16_to_f32(uint16_t(field));
}

// Largest value <= v representable at precision m (fp16 saturates to +-65504).
template <class Cvt = SoftF16>
MLSYS_HD uint32_t meta_field_down(float v, MetaPrecision m) {
  if (m == MetaPrecision::fp32) return float_bits(v);
  if (m == MetaPrecision::fp16) return f32_to_f16_down<Cvt>(v);
  return f32_to_bf16_down(v);
}

// mn/mx: the row's min and max (any order of evaluation; -0/+0 are normalized here); first: the
// row's first value, stored bit-exactly when the row is constant.
template <class Cvt = SoftF16>
MLSYS_HD SrRowMeta sr_row_meta(float mn, float mx, float first, int bits, MetaPrecision m) {
  SrRowMeta r{};
  const bool wide = m == MetaPrecision::fp32;
  if (mx == mn) {
    uint32_t v = float_bits(first);
    r.constant = true;
    r.mn = first;
    r.s = 0;
    if (wide) {
      r.min_field = v;
      r.scale_field = 0x80000000u;
    } else {
      r.min_field = v >> 16;
      r.scale_field = 0x8000u | (v & 0x7fffu);
      r.first_code = (v >> 15) & 1u;
    }
    return r;
  }
  const float levels = float((1u << bits) - 1u);
  mn = mn + 0.0f;  // -0 -> +0, so that min/max evaluation order cannot change the stored bits
  r.min_field = meta_field_down<Cvt>(mn, m);
  r.mn = meta_field_value<Cvt>(r.min_field, m);
  float s = levels / (mx - r.mn);
  if (!(s <= FLT_MAX)) s = FLT_MAX;  // range below float resolution
  r.scale_field = meta_field_down<Cvt>(s, m);
  r.s = meta_field_value<Cvt>(r.scale_field, m);
  if (!(r.s > 0)) {      // scale underflows the metadata precision: smallest positive value (saturates)
    r.scale_field = 1u;  // smallest positive subnormal at every precision
    r.s = meta_field_value<Cvt>(r.scale_field, m);
  }
  return r;
}

MLSYS_HD bool sr_is_constant_field(uint32_t scale_field, MetaPrecision m) {
  return m == MetaPrecision::fp32 ? (scale_field & 0x80000000u) != 0 : (scale_field & 0x8000u) != 0;
}

// The constant row's exact value from its fields and first code.
MLSYS_HD float sr_constant_value(uint32_t min_field, uint32_t scale_field, uint32_t first_code, MetaPrecision m) {
  if (m == MetaPrecision::fp32) return bits_float(min_field);
  return bits_float((min_field << 16) | ((first_code & 1u) << 15) | (scale_field & 0x7fffu));
}

// q = clamp(floor((x - mn) * s + u), 0, levels) as a float; u is the rounding rule's threshold
// (rounding_rule.hpp: uniform noise for stochastic rounding, 1/2 for round to nearest). Written so
// that NaN maps the same way in every kernel (to `levels`), and never contracted into an FMA (CUDA:
// explicit _rn intrinsics).
MLSYS_HD float sr_quantize(float x, float mn, float s, float u, float levels) {
#ifdef __CUDA_ARCH__
  float t = floorf(__fadd_rn(__fmul_rn(__fsub_rn(x, mn), s), u));
#else
  float d = x - mn;
  float p = d * s;
  float t = __builtin_floorf(p + u);
#endif
  t = t < levels ? t : levels;
  t = t > 0.0f ? t : 0.0f;
  return t;
}

MLSYS_HD float sr_dequantize(uint32_t q, float mn, float s) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(__fdiv_rn(float(q), s), mn);
#else
  float d = float(q) / s;
  return d + mn;
#endif
}

// Widths an SR codec may have: the payload is a little-endian bit stream (codec.hpp), so any width
// up to 8 packs generically; a code then spans at most two bytes. Wider codes would need wider
// loads in every kernel and more than 2^8 levels of the clamped-code trick in the CUDA kernels.
constexpr int kSrMinBits = 1, kSrMaxBits = 8;

// Code i of the payload: bits [i*bits, i*bits + bits), low bits in the lower byte. Put ORs into a
// zeroed payload; get reads the second byte only when the code straddles into it (so a payload of
// exactly sr_payload_bytes is never read past its end).
MLSYS_HD void sr_put_code(uint8_t* payload, size_t i, int bits, uint32_t q) {
  const size_t bit = i * size_t(bits), byte = bit / 8;
  const unsigned shift = unsigned(bit % 8);
  payload[byte] = uint8_t(payload[byte] | (q << shift));
  if (shift + unsigned(bits) > 8) payload[byte + 1] = uint8_t(payload[byte + 1] | (q >> (8 - shift)));
}
MLSYS_HD uint32_t sr_get_code(const uint8_t* payload, size_t i, int bits) {
  const size_t bit = i * size_t(bits), byte = bit / 8;
  const unsigned shift = unsigned(bit % 8);
  uint32_t v = uint32_t(payload[byte]) >> shift;
  if (shift + unsigned(bits) > 8) v |= uint32_t(payload[byte + 1]) << (8 - shift);
  return v & ((1u << bits) - 1u);
}

MLSYS_HD void store_field(uint8_t* p, uint32_t v, size_t nbytes) {
  for (size_t i = 0; i < nbytes; ++i) p[i] = uint8_t(v >> (8 * i));
}
MLSYS_HD uint32_t load_field(const uint8_t* p, size_t nbytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < nbytes; ++i) v |= uint32_t(p[i]) << (8 * i);
  return v;
}

}  // namespace mlsys::quant
