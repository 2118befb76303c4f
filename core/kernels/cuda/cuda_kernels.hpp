#pragma once
// CUDA backend of core/kernels (cuBLAS, cuSPARSE, own kernels). Only compiled with MLSYS_WITH_CUDA.
#include "core/kernels/kernels.hpp"

namespace mlsys::kernels::cuda {
#define MLSYS_KERNEL(ret, name, params, args) ret name params;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
}  // namespace mlsys::kernels::cuda
