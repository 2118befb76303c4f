#pragma once
// Kernel entry points behind the codecs (codec.hpp). `reference` kernels are the plain definition;
// `fast` kernels are vectorized (AVX2, chosen at run time; otherwise they fall back to the
// reference) and must agree with the reference bit for bit; `cuda` kernels take device pointers
// and forward to the cuda backend's table (device_kernels.hpp; libmlsys_cuda.so), which is loaded
// on first use (ConfigError with the reason when it is unavailable).
#include <cstddef>
#include <cstdint>

#include "core/quant/meta_precision.hpp"

namespace mlsys::quant::kernels {

// The per-row min/scale format (sr_format.hpp) under rounding rule `rule` (an index of
// RoundingRules, rounding.hpp: kRuleIndex<rounding::stochastic::Rule> for the sr codecs). Decode
// does not depend on the rule.
void sr_encode_reference(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                         uint8_t* out);
void sr_decode_reference(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out);

void sr_encode_fast(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                    uint8_t* out);
void sr_decode_fast(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out);
bool fast_kernels_vectorized();  // false when this CPU lacks AVX2 (fast == reference then)

// 16-bit float codecs: n values, little-endian 2 bytes each. bf16 = true for bfloat16.
void half_encode_reference(const float* x, size_t n, bool bf16, uint8_t* out);
void half_decode_reference(const uint8_t* in, size_t n, bool bf16, float* out);
void half_encode_fast(const float* x, size_t n, bool bf16, uint8_t* out);
void half_decode_fast(const uint8_t* in, size_t n, bool bf16, float* out);

void sr_encode_cuda(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                    uint8_t* out, void* stream);
void sr_decode_cuda(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out, void* stream);
void half_encode_cuda(const float* x, size_t n, bool bf16, uint8_t* out, void* stream);
void half_decode_cuda(const uint8_t* in, size_t n, bool bf16, float* out, void* stream);
void copy_cuda(const void* src, size_t bytes, void* dst, void* stream);

}  // namespace mlsys::quant::kernels
