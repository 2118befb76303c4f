#include "core/tensor/cuda/cuda_pool.hpp"

#include "core/tensor/cuda/cuda_runtime.hpp"

namespace mlsys {

void* CudaCachingPool::system_allocate(size_t cls) {
  cudart::set_device(device_);
  return cudart::device_malloc(cls);
}

void CudaCachingPool::system_free(void* p, size_t) { cudart::device_free(p); }

// Cached blocks may still be read by queued kernels: wait for the device before freeing.
void CudaCachingPool::before_release() {
  cudart::set_device(device_);
  cudart::synchronize(nullptr);
}

}  // namespace mlsys
