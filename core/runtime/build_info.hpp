#pragma once
#include <string>

namespace mlsys {

// Version and compiled-in features (CUDA, NCCL, MPI, BLAS, threads), for `mlsys version`.
std::string build_info_text();
bool built_with_cuda();
bool built_with_nccl();
bool built_with_mpi();

}  // namespace mlsys
