#pragma once
#include <string>

namespace mlsys {

// Version, git commit, compiler and compiled-in features (CUDA, NCCL, MPI, BLAS, threads), for
// `mlsys version`.
std::string build_info_text();
bool built_with_cuda();
bool built_with_nccl();
bool built_with_mpi();

// The git commit the program was built from ("unknown" outside a checkout), with "-dirty" when
// tracked files differed from it. The mlsys executable bakes it in at build time and sets it first
// thing in main, so relinking the libraries is never needed for a new commit.
void set_git_sha(std::string sha);
const std::string& git_sha();
// Compiler name and version, e.g. "gcc 12.2.0".
std::string compiler_name();

}  // namespace mlsys
