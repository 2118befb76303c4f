#pragma once
// One interface for memory pools: the CPU caching pool (cpu_pool.hpp) and the CUDA caching
// allocator (cuda/cuda_pool.hpp). Both round requests up to size classes, keep freed blocks in a
// cache for reuse, and keep statistics. A limit (bytes, 0 = unlimited) bounds the bytes the pool
// holds (in use + cached); when a request would exceed it, the cache is released first and only
// then does the pool throw mlsys::Error("out of memory in pool X: asked N, limit M, in use K ...").
//
// Pools are owned by a DeviceContext (device_context.hpp), which registers their statistics with
// register_memory_reporter so every command's summary lists them.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor/device.hpp"
#include "core/util/json.hpp"

namespace mlsys {

struct PoolStats {
  uint64_t in_use_bytes = 0;  // handed out (rounded to the size class)
  uint64_t peak_bytes = 0;    // high-water mark of in_use_bytes
  uint64_t cached_bytes = 0;  // freed blocks kept for reuse
  uint64_t limit_bytes = 0;   // 0 = unlimited
  uint64_t allocations = 0;   // allocate() calls with bytes > 0
  uint64_t hits = 0;          // served from the cache
  uint64_t system_allocations = 0;  // blocks obtained from the system (malloc / cudaMalloc)
  // Device pools: the driver's used memory on the device (DeviceBackend::driver_used_bytes) at its
  // highest, read after each block this pool obtained; 0 (and left out of to_json) elsewhere.
  uint64_t driver_used_peak_bytes = 0;
  double hit_rate() const { return allocations ? static_cast<double>(hits) / static_cast<double>(allocations) : 0.0; }
  Json to_json() const;
};

class MemoryPool {
 public:
  virtual ~MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // Returns a block of at least `bytes` (64-byte aligned on CPU, 256 on CUDA). `stream` is the
  // CUDA stream (cudaStream_t) whose cache serves the request; ignored by the CPU pool. A block
  // must be returned with the same size and stream. bytes == 0 returns nullptr.
  void* allocate(size_t bytes, void* stream = nullptr);
  void deallocate(void* p, size_t bytes, void* stream = nullptr);
  // Returns every cached block to the system.
  void release_cached();

  const std::string& name() const { return name_; }
  Device device() const { return device_; }
  PoolStats stats() const;
  void set_limit(uint64_t bytes);
  void reset_peak();

 protected:
  MemoryPool(std::string name, Device device, uint64_t limit_bytes);
  // Size class of a request: multiples of `granularity` up to 1 KiB, then 4 classes per power of
  // two (at most 25% waste).
  static size_t size_class(size_t bytes, size_t granularity);
  // What a backend provides: its size class, and getting / returning memory from the system
  // (nullptr when the system has none). Derived destructors must call release_cached().
  virtual size_t class_of(size_t bytes) const = 0;
  virtual void* system_allocate(size_t cls) = 0;
  virtual void system_free(void* p, size_t cls) = 0;
  // Called before blocks are returned to the system (CUDA: wait for queued kernels).
  virtual void before_release() {}
  // PoolStats::driver_used_peak_bytes (device pools).
  virtual uint64_t driver_used_peak() const { return 0; }

 private:
  [[noreturn]] void throw_out_of_memory(size_t asked, const std::string& detail = "") const;
  void release_cached_locked();

  mutable std::mutex mu_;
  PoolStats stats_;  // guarded by mu_
  std::map<std::pair<void*, size_t>, std::vector<void*>> cache_;  // (stream, class) -> free blocks
  std::string name_;
  Device device_;
};

}  // namespace mlsys
