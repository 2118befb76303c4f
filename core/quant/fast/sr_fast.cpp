// Vectorized CPU kernels (AVX2, chosen at run time so the library still runs on any x86-64).
// They compute exactly what the reference does, in the same float operations: the rounding rule's
// threshold is a pure function of (seed, row, column) that its Lanes give 8 columns at a time
// (rounding_rule.hpp), and each value goes through the same sub/mul/add/floor/min/max sequence, so
// the output is bit-identical (tests/core/quant). Encode is instantiated for every rule.
// Codes are packed with movemask per bit plane and a spread table for 1, 2 and 4 bits (no BMI2 pdep:
// slow on Zen 2), a byte shuffle for 8 bits, and per-lane shifts for any other width (1..8), so a
// new width needs no code here.
#include <algorithm>
#include <cstring>

#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"  // MLSYS_QUANT_AVX2 and MLSYS_AVX2 on x86 (rounding_rule.hpp)
#include "core/quant/sr_format.hpp"

namespace mlsys::quant::kernels {
namespace {

// Writes a little-endian bit stream 32 bits at a time.
struct BitWriter {
  uint8_t* p;
  uint64_t acc = 0;
  unsigned n = 0;
  void put(uint32_t v, unsigned bits) {  // bits <= 32, v < 2^bits
    acc |= uint64_t(v) << n;
    n += bits;
    if (n >= 32) {
      uint32_t lo = uint32_t(acc);
      std::memcpy(p, &lo, 4);
      p += 4;
      acc >>= 32;
      n -= 32;
    }
  }
  void zeros(size_t bits) {
    while (bits >= 32) {
      put(0, 32);
      bits -= 32;
    }
    if (bits) put(0, unsigned(bits));
  }
  void finish() {
    while (n > 0) {
      *p++ = uint8_t(acc);
      acc >>= 8;
      n = n > 8 ? n - 8 : 0;
    }
  }
};

// Reads up to 57 bits at any bit position without touching bytes past `end`.
struct BitReader {
  const uint8_t* base;
  size_t bytes;
  uint64_t peek(size_t pos) const {
    size_t b = pos >> 3;
    uint64_t v = 0;
    if (b + 8 <= bytes) {
      std::memcpy(&v, base + b, 8);
    } else {
      for (size_t i = 0; b + i < bytes && i < 8; ++i) v |= uint64_t(base[b + i]) << (8 * i);
    }
    return v >> (pos & 7);
  }
};

#ifdef MLSYS_QUANT_AVX2
// spread2[m]: bit k of m moved to bit 2k; spread4[m]: bit k moved to bit 4k.
struct SpreadTables {
  uint16_t s2[256];
  uint32_t s4[256];
  SpreadTables() {
    for (uint32_t m = 0; m < 256; ++m) {
      s2[m] = 0;
      s4[m] = 0;
      for (int k = 0; k < 8; ++k)
        if (m & (1u << k)) {
          s2[m] = uint16_t(s2[m] | (1u << (2 * k)));
          s4[m] |= 1u << (4 * k);
        }
    }
  }
};
const SpreadTables kSpread;

struct F16cCvt {
  MLSYS_AVX2 static uint16_t to(float f) { return uint16_t(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }
  MLSYS_AVX2 static float from(uint16_t h) { return _cvtsh_ss(h); }
};

bool cpu_has_avx2() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  return ok;
}

MLSYS_AVX2 inline unsigned plane(__m256i q, int bit) {
  return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(q, 31 - bit))));
}

MLSYS_AVX2 inline void put8(BitWriter& w, __m256i q, int bits) {
  switch (bits) {
    case 1:
      w.put(plane(q, 0), 8);
      break;
    case 2:
      w.put(uint32_t(kSpread.s2[plane(q, 0)]) | (uint32_t(kSpread.s2[plane(q, 1)]) << 1), 16);
      break;
    case 4:
      w.put(kSpread.s4[plane(q, 0)] | (kSpread.s4[plane(q, 1)] << 1) | (kSpread.s4[plane(q, 2)] << 2) |
                (kSpread.s4[plane(q, 3)] << 3),
            32);
      break;
    case 8: {  // low byte of each lane
      const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12,
                                            -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
      __m256i b = _mm256_shuffle_epi8(q, pick);
      w.put(uint32_t(_mm_cvtsi128_si32(_mm256_castsi256_si128(b))), 32);
      w.put(uint32_t(_mm_cvtsi128_si32(_mm256_extracti128_si256(b, 1))), 32);
      break;
    }
    default: {  // any width (3, 5, 6, 7): lane i's code to bit (i % 4) * bits, then OR each half's lanes
      const __m256i to = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3), _mm256_set1_epi32(bits));
      __m256i v = _mm256_sllv_epi32(q, to);
      v = _mm256_or_si256(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
      v = _mm256_or_si256(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
      w.put(uint32_t(_mm_cvtsi128_si32(_mm256_castsi256_si128(v))), 4u * unsigned(bits));
      w.put(uint32_t(_mm_cvtsi128_si32(_mm256_extracti128_si256(v, 1))), 4u * unsigned(bits));
    }
  }
}

MLSYS_AVX2 inline float hmin(__m256 v) {
  __m128 m = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_min_ps(m, _mm_movehl_ps(m, m));
  m = _mm_min_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}
MLSYS_AVX2 inline float hmax(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}

// Same results as the reference's sequential scan (min/max are exact; NaN handled alike).
MLSYS_AVX2 inline void row_min_max(const float* row, size_t cols, float& mn_out, float& mx_out) {
  const size_t vec_end = cols & ~size_t(7);
  float mn = row[0], mx = row[0];
  size_t c = 0;
  if (vec_end) {
    __m256 vmn = _mm256_set1_ps(row[0]), vmx = vmn;
    // Four independent chains: min/max latency, not throughput, bounds a single chain.
    __m256 mn1 = vmn, mn2 = vmn, mn3 = vmn, mx1 = vmn, mx2 = vmn, mx3 = vmn;
    for (; c + 32 <= vec_end; c += 32) {
      __m256 a = _mm256_loadu_ps(row + c), b = _mm256_loadu_ps(row + c + 8), d = _mm256_loadu_ps(row + c + 16),
             e = _mm256_loadu_ps(row + c + 24);
      vmn = _mm256_min_ps(a, vmn);
      mn1 = _mm256_min_ps(b, mn1);
      mn2 = _mm256_min_ps(d, mn2);
      mn3 = _mm256_min_ps(e, mn3);
      vmx = _mm256_max_ps(a, vmx);
      mx1 = _mm256_max_ps(b, mx1);
      mx2 = _mm256_max_ps(d, mx2);
      mx3 = _mm256_max_ps(e, mx3);
    }
    vmn = _mm256_min_ps(_mm256_min_ps(vmn, mn1), _mm256_min_ps(mn2, mn3));
    vmx = _mm256_max_ps(_mm256_max_ps(vmx, mx1), _mm256_max_ps(mx2, mx3));
    for (; c < vec_end; c += 8) {
      __m256 v = _mm256_loadu_ps(row + c);
      vmn = _mm256_min_ps(v, vmn);
      vmx = _mm256_max_ps(v, vmx);
    }
    mn = hmin(vmn);
    mx = hmax(vmx);
  }
  for (; c < cols; ++c) {
    mn = row[c] < mn ? row[c] : mn;
    mx = row[c] > mx ? row[c] : mx;
  }
  mn_out = mn;
  mx_out = mx;
}

template <class Rule>
MLSYS_AVX2 void sr_encode_avx2(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed,
                               uint8_t* out) {
  const size_t fb = meta_field_bytes(m);
  BitWriter w{out + sr_meta_bytes(rows, m)};
  const float levels = float((1u << bits) - 1u);
  const __m256 vlev = _mm256_set1_ps(levels), vzero = _mm256_setzero_ps();
  const size_t vec_end = cols & ~size_t(7);
  // Rows go in blocks: first the metadata of kBlock rows (independent work that the CPU overlaps),
  // then their codes.
  constexpr size_t kBlock = 16;
  SrRowMeta metas[kBlock];
  for (size_t r0 = 0; r0 < rows; r0 += kBlock) {
    const size_t r1 = std::min(rows, r0 + kBlock);
    for (size_t r = r0; r < r1; ++r) {
      const float* row = x + r * cols;
      float mn, mx;
      row_min_max(row, cols, mn, mx);
      metas[r - r0] = sr_row_meta<F16cCvt>(mn, mx, row[0], bits, m);
    }
    for (size_t r = r0; r < r1; ++r) {
      const float* row = x + r * cols;
      const SrRowMeta& meta = metas[r - r0];
      size_t c = 0;
      store_field(out + r * 2 * fb, meta.min_field, fb);
      store_field(out + r * 2 * fb + fb, meta.scale_field, fb);
      if (meta.constant) {
        w.put(meta.first_code, unsigned(bits));
        w.zeros((cols - 1) * size_t(bits));
        continue;
      }
      const uint32_t key = Rule::row_key(seed, r);
      typename Rule::Lanes thresholds(key);
      const __m256 vmnv = _mm256_set1_ps(meta.mn), vs = _mm256_set1_ps(meta.s);
      c = 0;
      if (bits == 1) {
        // q = 1 exactly when !(p + u < 1): floor, clamp and convert are not needed (NaN -> 1, as
        // in the reference). Four vectors make one 32-bit word of codes.
        const __m256 one = _mm256_set1_ps(1.0f);
        auto code8 = [&](size_t at) MLSYS_AVX2 {
          __m256 u = thresholds.next();
          __m256 y = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(row + at), vmnv), vs), u);
          return uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(y, one, _CMP_NLT_UQ)));
        };
        for (; c + 32 <= vec_end; c += 32) {
          uint32_t word = code8(c) | (code8(c + 8) << 8) | (code8(c + 16) << 16) | (code8(c + 24) << 24);
          w.put(word, 32);
        }
        for (; c < vec_end; c += 8) w.put(code8(c), 8);
      }
      for (; c < vec_end; c += 8) {
        __m256 u = thresholds.next();
        __m256 d = _mm256_sub_ps(_mm256_loadu_ps(row + c), vmnv);
        __m256 t = _mm256_floor_ps(_mm256_add_ps(_mm256_mul_ps(d, vs), u));
        t = _mm256_max_ps(_mm256_min_ps(t, vlev), vzero);
        put8(w, _mm256_cvttps_epi32(t), bits);
      }
      for (; c < cols; ++c)
        w.put(uint32_t(sr_quantize(row[c], meta.mn, meta.s, Rule::threshold(key, uint32_t(c)), levels)),
              unsigned(bits));
    }
  }
  w.finish();
}

MLSYS_AVX2 void sr_decode_avx2(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out) {
  const size_t fb = meta_field_bytes(m);
  BitReader rd{in + sr_meta_bytes(rows, m), sr_payload_bytes(rows, cols, bits)};
  const uint32_t mask = (1u << bits) - 1u;
  const __m256i vmask = _mm256_set1_epi32(int(mask));
  const __m256i shifts = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(bits));
  const __m256i half_shifts = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3), _mm256_set1_epi32(bits));
  const unsigned half_bits = 4u * unsigned(bits);
  const size_t vec_end = cols & ~size_t(7);
  size_t pos = 0;
  for (size_t r = 0; r < rows; ++r) {
    uint32_t min_field = load_field(in + r * 2 * fb, fb), scale_field = load_field(in + r * 2 * fb + fb, fb);
    float* row = out + r * cols;
    if (sr_is_constant_field(scale_field, m)) {
      float v = sr_constant_value(min_field, scale_field, uint32_t(rd.peek(pos)) & mask, m);
      __m256 vv = _mm256_set1_ps(v);
      size_t c = 0;
      for (; c < vec_end; c += 8) _mm256_storeu_ps(row + c, vv);
      for (; c < cols; ++c) row[c] = v;
      pos += cols * size_t(bits);
      continue;
    }
    const float mn = meta_field_value<F16cCvt>(min_field, m), s = meta_field_value<F16cCvt>(scale_field, m);
    const __m256 vmn = _mm256_set1_ps(mn), vs = _mm256_set1_ps(s);
    size_t c = 0;
    for (; c < vec_end; c += 8) {
      uint64_t word = rd.peek(pos);
      pos += 8 * size_t(bits);
      __m256i q;
      if (bits == 8) {
        q = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)word));
      } else if (bits <= 4) {  // 8 codes fit one 32-bit word
        q = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(int(uint32_t(word))), shifts), vmask);
      } else {  // 5..7 bits: 8 codes take up to 56 bits (peek gives 57); each half of 4 codes fits 32
        const int lo = int(uint32_t(word) & ((1u << half_bits) - 1u)), hi = int(uint32_t(word >> half_bits));
        q = _mm256_and_si256(_mm256_srlv_epi32(_mm256_setr_epi32(lo, lo, lo, lo, hi, hi, hi, hi), half_shifts), vmask);
      }
      __m256 y = _mm256_add_ps(_mm256_div_ps(_mm256_cvtepi32_ps(q), vs), vmn);
      _mm256_storeu_ps(row + c, y);
    }
    for (; c < cols; ++c, pos += size_t(bits)) row[c] = sr_dequantize(uint32_t(rd.peek(pos)) & mask, mn, s);
  }
}

MLSYS_AVX2 void f16_encode_avx2(const float* x, size_t n, uint8_t* out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
  half_encode_reference(x + i, n - i, false, out + 2 * i);
}

MLSYS_AVX2 void f16_decode_avx2(const uint8_t* in, size_t n, float* out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i))));
  half_decode_reference(in + 2 * i, n - i, false, out + i);
}
#else
struct F16cCvt {
  MLSYS_AVX2 static uint16_t to(float f) { return uint16_t(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }
  MLSYS_AVX2 static float from(uint16_t h) { return _cvtsh_ss(h); }
};

bool cpu_has_avx2() { return false; }
#endif

}  // namespace

bool fast_kernels_vectorized() { return cpu_has_avx2(); }

void sr_encode_fast(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                    uint8_t* out) {
#ifdef MLSYS_QUANT_AVX2
  if (cpu_has_avx2())
    return with_rounding_rule(rule, [&](auto r) { sr_encode_avx2<decltype(r)>(x, rows, cols, bits, m, seed, out); });
#endif
  sr_encode_reference(x, rows, cols, bits, m, rule, seed, out);
}

void sr_decode_fast(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out) {
#ifdef MLSYS_QUANT_AVX2
  if (cpu_has_avx2()) return sr_decode_avx2(in, rows, cols, bits, m, out);
#endif
  sr_decode_reference(in, rows, cols, bits, m, out);
}

void half_encode_fast(const float* x, size_t n, bool bf16, uint8_t* out) {
#ifdef MLSYS_QUANT_AVX2
  if (!bf16 && cpu_has_avx2()) return f16_encode_avx2(x, n, out);
#endif
  half_encode_reference(x, n, bf16, out);
}

void half_decode_fast(const uint8_t* in, size_t n, bool bf16, float* out) {
#ifdef MLSYS_QUANT_AVX2
  if (!bf16 && cpu_has_avx2()) return f16_decode_avx2(in, n, out);
#endif
  half_decode_reference(in, n, bf16, out);
}

}  // namespace mlsys::quant::kernels
