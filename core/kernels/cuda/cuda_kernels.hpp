#pragma once
// CUDA backend of core/kernels (cuBLAS, cuSPARSE, own kernels). Only compiled with MLSYS_WITH_CUDA.
#include "core/kernels/kernels.hpp"

namespace mlsys::kernels::cuda {
#include "core/kernels/kernels.inc"
}  // namespace mlsys::kernels::cuda
