#include "core/runtime/build_info.hpp"

#include <fmt/format.h>

#include "core/comm/factory.hpp"
#include "core/process/thread_policy.hpp"
#include "core/util/error.hpp"

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

namespace {
std::string& sha_store() {
  static std::string sha = "unknown";
  return sha;
}
}  // namespace

void set_git_sha(std::string sha) { sha_store() = sha.empty() ? "unknown" : std::move(sha); }
const std::string& git_sha() { return sha_store(); }

std::string compiler_name() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

namespace {
// What a run started here would use, by the thread policy (or why it would not start).
std::string run_threads_text() {
  try {
    ThreadChoice c = choose_threads(0);
    return fmt::format("a run uses {} (from {}{})", c.threads, c.from, c.capped.empty() ? "" : ", cut from " + c.capped);
  } catch (const ConfigError& e) {
    return e.what();
  }
}
}  // namespace

std::string build_info_text() {
  return fmt::format(
      "mlsys {}\n"
      "  git:     {}\n"
      "  mpi:     {}\n"
      "  blas:    OpenBLAS ({})\n"
      "  threads: {} hardware threads, {} in this process's affinity mask; {}\n"
      "  openmp:  OMP_WAIT_POLICY={}\n"
      "  compiler: {}\n"
      "  backends (cuda and nccl are plugins, loaded when a config asks for them):\n{}",
      MLSYS_VERSION, git_sha(), built_with_mpi() ? "yes" : "no (install libopenmpi-dev: scripts/setup)",
      openblas_get_config(), std::thread::hardware_concurrency(), affinity_cpu_count(), run_threads_text(),
      std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "(libgomp default)", compiler_name(),
      comm::backends_report());
}

}  // namespace mlsys
