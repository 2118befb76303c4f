#pragma once
// CPU backend of core/kernels (OpenBLAS + OpenMP). Called through kernels.hpp's dispatchers.
#include "core/kernels/kernels.hpp"

namespace mlsys::kernels::cpu {
#include "core/kernels/kernels.inc"
}  // namespace mlsys::kernels::cpu
