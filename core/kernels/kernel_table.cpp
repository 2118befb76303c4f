#include "core/kernels/kernel_table.hpp"

namespace mlsys::kernels {

std::string KernelTable::missing() const {
  std::string out;
#define MLSYS_KERNEL_MISSING(fn) \
  if (!fn) out += (out.empty() ? "" : ", ") + std::string(#fn);
  MLSYS_KERNEL_NAMES(MLSYS_KERNEL_MISSING)
#undef MLSYS_KERNEL_MISSING
  return out;
}

const KernelTable& cpu_kernel_table() {
  static const KernelTable t = [] {
    KernelTable k;
#define MLSYS_KERNEL_FILL(fn) k.fn = &cpu::fn;
    MLSYS_KERNEL_NAMES(MLSYS_KERNEL_FILL)
#undef MLSYS_KERNEL_FILL
    return k;
  }();
  return t;
}

}  // namespace mlsys::kernels
