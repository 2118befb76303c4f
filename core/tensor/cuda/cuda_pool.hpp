#pragma once
// CUDA caching allocator: cudaMalloc-backed (never managed memory), blocks rounded to size
// classes (256-byte granularity) and cached per (stream, size class) so a block freed on one
// stream is only reused by work on that stream. Only compiled with MLSYS_WITH_CUDA.
#include "core/tensor/memory_pool.hpp"

namespace mlsys {

class CudaCachingPool : public MemoryPool {
 public:
  static constexpr size_t kGranularity = 256;
  CudaCachingPool(std::string name, int device, uint64_t limit_bytes = 0)
      : MemoryPool(std::move(name), Device::cuda(device), limit_bytes), device_(device) {}
  ~CudaCachingPool() override { release_cached(); }

 protected:
  size_t class_of(size_t bytes) const override { return size_class(bytes, kGranularity); }
  void* system_allocate(size_t cls) override;
  void system_free(void* p, size_t cls) override;
  void before_release() override;

 private:
  int device_;
};

}  // namespace mlsys
