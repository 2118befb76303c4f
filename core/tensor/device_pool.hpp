#pragma once
// The caching pool of device memory (every CUDA tensor, and the wire buffers of quantized
// collectives, come from one): blocks from the backend's allocate() (cudaMalloc, never managed
// memory), rounded to size classes (256-byte granularity) and cached per (stream, size class), so
// a block freed on one stream is only reused by work on that stream. Generic over the backend, so
// it lives in the core and is tested with an emulated device.
#include <atomic>

#include "core/tensor/device_backend.hpp"
#include "core/tensor/memory_pool.hpp"

namespace mlsys {

class DeviceCachingPool : public MemoryPool {
 public:
  static constexpr size_t kGranularity = 256;
  DeviceCachingPool(std::string name, DeviceBackend& backend, Device device, uint64_t limit_bytes = 0)
      : MemoryPool(std::move(name), device, limit_bytes), backend_(backend) {}
  ~DeviceCachingPool() override { release_cached(); }

 protected:
  size_t class_of(size_t bytes) const override { return size_class(bytes, kGranularity); }
  void* system_allocate(size_t cls) override {
    void* p = backend_.allocate(device().index, cls);
    // The driver's figure is read when the pool grows (the moments its own share rises; what
    // libraries or other processes take in between is seen at the next growth), not per request.
    if (p) {
      const uint64_t used = backend_.driver_used_bytes(device().index);
      uint64_t seen = driver_peak_.load();
      while (used > seen && !driver_peak_.compare_exchange_weak(seen, used)) {
      }
    }
    return p;
  }
  void system_free(void* p, size_t) override { backend_.free(device().index, p); }
  // Cached blocks may still be read by queued kernels: wait for the device before freeing.
  void before_release() override { backend_.synchronize(device().index, nullptr); }
  uint64_t driver_used_peak() const override { return driver_peak_.load(); }

 private:
  DeviceBackend& backend_;
  std::atomic<uint64_t> driver_peak_{0};
};

}  // namespace mlsys
