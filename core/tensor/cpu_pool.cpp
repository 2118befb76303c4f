#include "core/tensor/cpu_pool.hpp"

#include <sys/mman.h>

#include <bit>
#include <cstdint>
#include <cstdlib>

namespace mlsys {

size_t CpuCachingPool::class_of(size_t bytes) const {
  size_t cls = size_class(bytes, kAlignment);
  if (cls >= kRoundUp && cls < kHugeThreshold) cls = std::bit_ceil(cls);
  if (cls >= kHugeThreshold) cls = (cls + kHugePage - 1) / kHugePage * kHugePage;
  return cls;
}

void* CpuCachingPool::system_allocate(size_t cls) {
  if (cls < kHugeThreshold) {
    void* p = std::aligned_alloc(kAlignment, cls);
    if (p && cls >= kRoundUp) {
      const uintptr_t page = 4096, a = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
      (void)madvise(reinterpret_cast<void*>(a), reinterpret_cast<uintptr_t>(p) + cls - a, MADV_NOHUGEPAGE);
    }
    return p;
  }
  void* p = std::aligned_alloc(kHugePage, cls);
  if (p) (void)madvise(p, cls, MADV_HUGEPAGE);  // a hint; fine if THP is off
  return p;
}

void CpuCachingPool::system_free(void* p, size_t) { std::free(p); }

}  // namespace mlsys
