#pragma once
// Host caching pool: 64-byte aligned blocks in size classes, freed blocks cached per class.
// Blocks of 4 MiB and more are 2 MiB aligned and advised as transparent huge pages: feature
// matrices are gathered row by row at random (SpMM), where 4 KiB pages thrash the TLB. Blocks from
// 256 KiB to 2 MiB take power-of-two classes, and blocks under 4 MiB are advised against huge
// pages (cpu_pool.cpp). A pool limit (device.host_pool_limit_mb) counts blocks by their class.
#include "core/tensor/memory_pool.hpp"

namespace mlsys {

class CpuCachingPool : public MemoryPool {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kHugeThreshold = size_t{4} << 20;
  static constexpr size_t kRoundUp = size_t{256} << 10;
  explicit CpuCachingPool(std::string name = "host", uint64_t limit_bytes = 0)
      : MemoryPool(std::move(name), Device::cpu(), limit_bytes) {}
  ~CpuCachingPool() override { release_cached(); }

 protected:
  size_t class_of(size_t bytes) const override;
  void* system_allocate(size_t cls) override;
  void system_free(void* p, size_t cls) override;
};

}  // namespace mlsys
