#include "core/kernels/kernel_table.hpp"

#include "core/kernels/cpu/cpu_kernels.hpp"

namespace mlsys::kernels {

#define MLSYS_KERNEL(ret, name, params, args)                       \
  static_assert(detail::names_parameters_in_order(#params, #args), \
                "kernels.inc: the second list of " #name " must name its parameters, in their order");
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL

std::string KernelTable::missing() const {
  std::string out;
#define MLSYS_KERNEL(ret, name, params, args) \
  if (!name) out += (out.empty() ? "" : ", ") + std::string(#name);
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
  return out;
}

const KernelTable& cpu_kernel_table() {
  static const KernelTable t = [] {
    KernelTable k;
#define MLSYS_KERNEL(ret, name, params, args) k.name = &cpu::name;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
    return k;
  }();
  return t;
}

}  // namespace mlsys::kernels
