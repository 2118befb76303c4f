#include "core/runtime/build_info.hpp"

#include <fmt/format.h>

#include "core/comm/factory.hpp"

#include <cstdlib>
#include <thread>

extern "C" char* openblas_get_config(void);
extern "C" int openblas_get_num_threads(void);

namespace mlsys {

bool built_with_cuda() {
#ifdef MLSYS_WITH_CUDA
  return true;
#else
  return false;
#endif
}
bool built_with_nccl() {
#ifdef MLSYS_WITH_NCCL
  return true;
#else
  return false;
#endif
}
bool built_with_mpi() {
#ifdef MLSYS_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::string build_info_text() {
  return fmt::format(
      "mlsys {}\n"
      "  mpi:     {}\n"
      "  blas:    OpenBLAS ({})\n"
      "  threads: {} hardware threads\n"
      "  openmp:  OMP_WAIT_POLICY={}\n"
      "  compiler: {}\n"
      "  backends (cuda and nccl are plugins, loaded when a config asks for them):\n{}",
      MLSYS_VERSION, built_with_mpi() ? "yes" : "no (install libopenmpi-dev: scripts/setup)",
      openblas_get_config(), std::thread::hardware_concurrency(),
      std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "(libgomp default)", __VERSION__,
      comm::backends_report());
}

}  // namespace mlsys
