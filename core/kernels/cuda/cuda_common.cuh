#pragma once
// Shared helpers of the CUDA kernels: launch sizes, the context's stream and handles, a device
// scratch reduction, and index-type dispatch.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "core/kernels/cuda/cuda_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"
#include "core/tensor/cuda/cuda_runtime.hpp"

namespace mlsys::kernels::cuda {

using namespace detail;

constexpr int kThreads = 256;
inline unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}
inline cudaStream_t stream_of(DeviceContext& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }
inline cublasHandle_t blas_of(DeviceContext& ctx) { return static_cast<cublasHandle_t>(ctx.blas_handle()); }
inline void check_launch(const char* fn) { cudart::check_last(fn); }

#define MLSYS_GRID_STRIDE(i, n) \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); i += static_cast<int64_t>(blockDim.x) * gridDim.x)

// Calls fn(ptr) with the tensor's data as int32_t* or int64_t*.
template <class Fn>
void with_index(const Tensor& t, Fn&& fn) {
  if (t.dtype() == DType::i64) fn(t.data<int64_t>());
  else fn(t.data<int32_t>());
}

// A few f64 accumulators on the device, read back synchronously.
class DeviceSums {
 public:
  DeviceSums(DeviceContext& ctx, int n) : ctx_(ctx), n_(n), scratch_(ctx, sizeof(double) * n) {
    cudaMemsetAsync(scratch_.get(), 0, sizeof(double) * n, stream_of(ctx));
  }
  double* ptr() const { return scratch_.as<double>(); }
  void read(double* out) const {
    cudaMemcpyAsync(out, scratch_.get(), sizeof(double) * n_, cudaMemcpyDeviceToHost, stream_of(ctx_));
    cudart::synchronize(ctx_.stream());
  }

 private:
  DeviceContext& ctx_;
  int n_;
  DeviceContext::Scratch scratch_;
};

}  // namespace mlsys::kernels::cuda
