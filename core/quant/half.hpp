#pragma once
// fp16 / bf16 <-> fp32 conversions by bit manipulation (no F16C needed), shared by every kernel.
// Besides round-to-nearest-even they offer round-down (toward -inf), which the SR codec uses for
// its metadata so that the stored [min, min + (2^b-1)/scale] still covers the row.
#include <cstdint>
#include <cstring>

#include "core/util/hd.hpp"

namespace mlsys::quant {

MLSYS_HD uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}
MLSYS_HD float bits_float(uint32_t u) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

MLSYS_HD float f16_to_f32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    float v = float(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return sign ? -v : v;
  }
  if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));
  return bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

// Round to nearest, ties to even; overflow gives inf, NaN stays NaN.
MLSYS_HD uint16_t f32_to_f16(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return uint16_t(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds to inf
  if (ax < 0x38800000u) {                                  // below 2^-14: subnormal or zero
    uint32_t e = ax >> 23;
    if (e < 102) return uint16_t(sign);
    uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - e;  // in units of 2^-24
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    return uint16_t(sign | q);
  }
  uint32_t h = (ax - 0x38000000u) >> 13, rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

// The software conversions as a policy, so that SIMD kernels can substitute hardware ones (F16C
// rounds identically) in the shared definitions below.
struct SoftF16 {
  MLSYS_HD static uint16_t to(float f) { return f32_to_f16(f); }
  MLSYS_HD static float from(uint16_t h) { return f16_to_f32(h); }
};

// Largest fp16 <= f, saturated to the finite range [-65504, 65504].
template <class Cvt = SoftF16>
MLSYS_HD uint16_t f32_to_f16_down(float f) {
  uint16_t h = Cvt::to(f);
  if (Cvt::from(h) > f) {
    if (h == 0x0000u)
      h = 0x8001u;  // +0 -> smallest negative subnormal
    else if (h & 0x8000u)
      h = uint16_t(h + 1);  // negative: grow magnitude
    else
      h = uint16_t(h - 1);  // positive: shrink magnitude (inf -> 65504)
  }
  if (h == 0xfc00u) h = 0xfbffu;  // -inf -> -65504
  return h;
}

MLSYS_HD float bf16_to_f32(uint16_t h) { return bits_float(uint32_t(h) << 16); }

MLSYS_HD uint16_t f32_to_bf16(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

// Largest bf16 <= f (finite f).
MLSYS_HD uint16_t f32_to_bf16_down(float f) {
  uint32_t u = float_bits(f);
  uint16_t h = uint16_t(u >> 16);                               // truncation: toward zero
  if ((u & 0xffffu) && (u & 0x80000000u)) h = uint16_t(h + 1);  // negative: toward -inf
  return h;
}

}  // namespace mlsys::quant
