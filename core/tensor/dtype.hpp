#pragma once
// The project's one element-type enum: of a Tensor and of a communicator buffer (comm::all_reduce
// takes a DType), plus the 16-bit float conversions (f16 = IEEE half, bf16 = bfloat16).
// 16-bit values are stored as their raw bits in Half / BFloat16 so the host side needs no compiler
// support for _Float16; tensor compute always happens in f32 (f64 is for host-side reductions).
#include <cstddef>
#include <cstdint>
#include <string>

namespace mlsys {

// The values are stored in tensor blobs (core/nn/state.hpp): append new types at the end.
enum class DType : uint8_t { f32, f16, bf16, i32, i64, u8, f64 };
inline constexpr DType kLastDType = DType::f64;

struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

size_t dtype_size(DType t);
const char* dtype_name(DType t);  // "f32", "f16", ...
DType parse_dtype(const std::string& name);  // throws ConfigError listing the valid names

// Compile-time mapping C++ type -> DType (Tensor::data<T>() checks the element type with it, the
// communicator's typed helpers pick the reduction type with it).
template <class T>
struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::f32; };
template <> struct DTypeOf<Half> { static constexpr DType value = DType::f16; };
template <> struct DTypeOf<BFloat16> { static constexpr DType value = DType::bf16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::i32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::i64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::u8; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::f64; };
template <class T>
inline constexpr DType dtype_of = DTypeOf<T>::value;

// Scalar conversions; float -> 16-bit rounds to nearest even, NaN stays NaN, overflow gives inf.
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
uint16_t float_to_bf16_bits(float f);
float bf16_bits_to_float(uint16_t b);
inline Half to_half(float f) { return Half{float_to_half_bits(f)}; }
inline float to_float(Half h) { return half_bits_to_float(h.bits); }
inline BFloat16 to_bf16(float f) { return BFloat16{float_to_bf16_bits(f)}; }
inline float to_float(BFloat16 b) { return bf16_bits_to_float(b.bits); }

// Bulk conversions (CPU, OpenMP-parallel for large n).
void floats_to_half(const float* in, Half* out, size_t n);
void half_to_floats(const Half* in, float* out, size_t n);
void floats_to_bf16(const float* in, BFloat16* out, size_t n);
void bf16_to_floats(const BFloat16* in, float* out, size_t n);

}  // namespace mlsys
