#include "core/comm/factory.hpp"

#include <cstdlib>
#include <exception>
#include <thread>

#include "core/comm/backends.hpp"
#include "core/comm/comm_error.hpp"
#include "core/comm/inproc/inproc_communicator.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

std::vector<std::string> available_backends() {
  std::vector<std::string> out{"inproc"};
#ifdef MLSYS_WITH_MPI
  out.push_back("mpi");
#endif
#ifdef MLSYS_WITH_NCCL
  out.push_back("nccl");
#endif
  return out;
}

bool backend_available(const std::string& backend) {
  for (auto& b : available_backends())
    if (b == backend) return true;
  return false;
}

void require_backend(const std::string& backend) {
  if (backend_available(backend)) return;
  if (backend == "mpi")
    throw ConfigError(
        "comm.backend 'mpi' is not built into this mlsys; install libopenmpi-dev and reconfigure with "
        "-DMLSYS_WITH_MPI=ON");
  if (backend == "nccl")
    throw ConfigError(
        "comm.backend 'nccl' is not built into this mlsys; it needs CUDA and NCCL: reconfigure with "
        "-DMLSYS_WITH_CUDA=ON (NCCL found under /usr/local/cuda)");
  throw ConfigError("unknown comm.backend '" + backend + "'; valid: inproc, mpi, nccl");
}

void run_inproc(int world_size, const CommOptions& options, const RankBody& body) {
  if (world_size < 1) throw ConfigError("comm.world_size must be >= 1, got " + std::to_string(world_size));
  auto group = std::make_shared<InprocGroup>(world_size, options);
  std::vector<std::exception_ptr> errors(static_cast<size_t>(world_size));
  std::vector<bool> secondary(static_cast<size_t>(world_size), false);
  std::vector<std::thread> threads;
  threads.reserve(size_t(world_size));
  for (int r = 0; r < world_size; ++r) {
    threads.emplace_back([&, r] {
      InprocCommunicator comm(group, r);
      try {
        body(comm);
      } catch (const CommAbortedError&) {
        errors[size_t(r)] = std::current_exception();
        secondary[size_t(r)] = true;
      } catch (const std::exception& e) {
        errors[size_t(r)] = std::current_exception();
        group->abort("rank " + std::to_string(r) + " failed: " + e.what());
      } catch (...) {
        errors[size_t(r)] = std::current_exception();
        group->abort("rank " + std::to_string(r) + " failed with an unknown exception");
      }
      group->rank_exited(r);
    });
  }
  for (auto& t : threads) t.join();
  // The root cause first: an error that is not merely "aborted because another rank failed".
  for (int r = 0; r < world_size; ++r)
    if (errors[size_t(r)] && !secondary[size_t(r)]) std::rethrow_exception(errors[size_t(r)]);
  for (int r = 0; r < world_size; ++r)
    if (errors[size_t(r)]) std::rethrow_exception(errors[size_t(r)]);
}

std::unique_ptr<Communicator> make_mpi_communicator(const CommOptions& options) {
  require_backend("mpi");
#ifdef MLSYS_WITH_MPI
  return detail::create_mpi_communicator(options);
#else
  (void)options;
  return nullptr;
#endif
}

std::unique_ptr<Communicator> make_nccl_communicator(const CommOptions& options, int device) {
  require_backend("nccl");
#ifdef MLSYS_WITH_NCCL
  return detail::create_nccl_communicator(options, device);
#else
  (void)options;
  (void)device;
  return nullptr;
#endif
}

std::unique_ptr<Communicator> make_communicator(const CommOptions& options) {
  require_backend(options.backend);
  if (options.backend == "mpi") return make_mpi_communicator(options);
  if (options.backend == "nccl") return make_nccl_communicator(options, -1);  // -1: this process's local rank
  if (options.world_size != 1)
    throw ConfigError("comm.backend inproc with world_size " + std::to_string(options.world_size) +
                      " runs its ranks as threads: use comm::run_ranks / run_inproc instead of make_communicator");
  return std::make_unique<InprocCommunicator>(std::make_shared<InprocGroup>(1, options), 0);
}

void run_ranks(const CommOptions& options, const RankBody& body) {
  require_backend(options.backend);
  if (options.backend == "inproc") return run_inproc(options.world_size, options, body);
  auto comm = make_communicator(options);
  body(*comm);
}

}  // namespace mlsys::comm
