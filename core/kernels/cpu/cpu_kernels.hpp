#pragma once
// CPU backend of core/kernels (OpenBLAS + OpenMP). Called through kernels.hpp's dispatchers.
#include "core/kernels/kernels.hpp"

namespace mlsys::kernels::cpu {
#define MLSYS_KERNEL(ret, name, params, args) ret name params;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
}  // namespace mlsys::kernels::cpu
