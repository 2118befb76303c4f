#pragma once
// Kept tiny and dependency-free: the CUDA kernels include it through sr_format.hpp.
namespace mlsys::quant {
enum class MetaPrecision { fp16, bf16, fp32 };
}  // namespace mlsys::quant
