#pragma once
// The CUDA codec kernels (sr_kernels.cu), part of libmlsys_cuda.so: the entries of the cuda
// backend's quant::DeviceCodecKernels table. Device pointers, on `stream` (a cudaStream_t).
#include <cstddef>
#include <cstdint>

#include "core/quant/meta_precision.hpp"

namespace mlsys::quant::kernels::cuda {

void sr_encode(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
               uint8_t* out, void* stream);
void sr_decode(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out, void* stream);
void half_encode(const float* x, size_t n, bool bf16, uint8_t* out, void* stream);
void half_decode(const uint8_t* in, size_t n, bool bf16, float* out, void* stream);
void copy(const void* src, size_t bytes, void* dst, void* stream);

}  // namespace mlsys::quant::kernels::cuda
