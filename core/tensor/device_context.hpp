#pragma once
// A DeviceContext is the explicit handle every kernel call takes: the device, its backend
// (device_backend.hpp: the host's, or CUDA's from libmlsys_cuda.so), the memory pool tensors for it
// are allocated from, and (CUDA) the stream and the cuBLAS / cuSPARSE handles.
// Its pool's statistics are registered with register_memory_reporter, so a command's summary.json
// lists them under resources.pools.<name> ("live": true while the context exists; after it is
// destroyed its final statistics stay listed with "live": false until a context of the same
// name replaces them).
//
//   DeviceContext ctx(Device::cpu());                 // or DeviceContext::from_options(opts)
//   Tensor x = Tensor::zeros({n, f}, DType::f32, ctx);
//   kernels::gemm(ctx, x, false, w, false, y);
#include <cstdint>
#include <memory>
#include <string>

#include "core/tensor/device.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/tensor/device_options.hpp"
#include "core/tensor/memory_pool.hpp"

namespace mlsys {

class DeviceContext {
 public:
  // pool_name defaults to "host" for cpu and "cuda:N" for CUDA; a suffix "#k" keeps the names of
  // contexts alive at the same time distinct. Throws ConfigError when the device's backend is
  // unavailable (with the reason: no driver, no device, library missing) or the ordinal is not visible.
  explicit DeviceContext(Device device = Device::cpu(), uint64_t pool_limit_bytes = 0, std::string pool_name = "");
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  // From the `device:` config section. `local_rank` is added to device.index for CUDA so ranks
  // that share a node use different GPUs. For CUDA, host_pool_limit_mb is applied to cpu_context().
  // The one place a `device.type` becomes a device: commands call it instead of branching on the type.
  static std::unique_ptr<DeviceContext> from_options(const DeviceOptions& opts, int local_rank = 0,
                                                     std::string pool_name = "");

  Device device() const { return device_; }
  bool is_cuda() const { return device_.is_cuda(); }
  DeviceBackend& backend() const { return *backend_; }
  MemoryPool& pool() const { return *pool_; }
  const std::shared_ptr<MemoryPool>& pool_ptr() const { return pool_; }
  void* stream() const { return handles_.stream; }        // cudaStream_t (nullptr on cpu)
  void* blas_handle() const { return handles_.blas; }     // cublasHandle_t (nullptr on cpu)
  void* sparse_handle() const { return handles_.sparse; } // cusparseHandle_t (nullptr on cpu)
  // Waits for all work queued on this context (no-op on cpu).
  void synchronize() const;
  // Raw scratch memory from this context's pool, returned when the object dies.
  class Scratch {
   public:
    Scratch(DeviceContext& ctx, size_t bytes);
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    void* get() const { return p_; }
    template <class T>
    T* as() const { return static_cast<T*>(p_); }

   private:
    DeviceContext& ctx_;
    void* p_;
    size_t bytes_;
  };

 private:
  Device device_;
  DeviceBackend* backend_;
  std::shared_ptr<MemoryPool> pool_;
  DeviceHandles handles_;
  int reporter_id_ = -1;
};

// Process-wide host context (pool "host", unlimited unless a command sets a limit). A
// convenience for host-side tensors; kernels still take the context explicitly.
DeviceContext& cpu_context();
// A lazily created context per device (cpu_context() for cpu); used by Tensor::to(Device).
DeviceContext& default_context(Device d);

}  // namespace mlsys
