#include "core/tensor/cpu_pool.hpp"

#include <sys/mman.h>

#include <bit>
#include <cstdint>
#include <cstdlib>

namespace mlsys {

size_t CpuCachingPool::class_of(size_t bytes) const {
  size_t cls = size_class(bytes, kAlignment);
  // Mid-sized blocks take power-of-two classes: a layer's temporaries differ a little in size from
  // one step to the next (owned x F, local x F, nonzeros), and finer classes each kept their own
  // cached blocks (coauthor_cs on 4 workers: three classes of 1.2-1.8 MB blocks where one serves).
  // The rounding costs address space only: the untouched tail of a block is never resident, so it
  // stops short of the huge-page blocks (their pages are resident whole: a 2.2 MB tensor of
  // sbm_100k rounded to 4 MiB raised its peak by 50 MiB).
  if (cls >= kRoundUp && std::bit_ceil(cls) < kHugeThreshold) cls = std::bit_ceil(cls);
  if (cls >= kHugeThreshold) cls = (cls + kHugePage - 1) / kHugePage * kHugePage;
  return cls;
}

void* CpuCachingPool::system_allocate(size_t cls) {
  if (cls < kHugeThreshold) {
    void* p = std::aligned_alloc(kAlignment, cls);
    // Not backed by huge pages: with THP "always", a 2 MiB-aligned stretch of a rounded-up block
    // became resident whole, touched or not (the coauthor_cs peak varied by 10 MiB run to run).
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
