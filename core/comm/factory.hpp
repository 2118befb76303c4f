#pragma once
// Making communicators from the `comm:` config section.
//
//   inproc: ranks are threads of this process. run_inproc(n, opts, body) starts n threads, gives
//           each its Communicator and rethrows the first failure (the root cause, not the
//           "aborted because rank k failed" errors it triggers in the other ranks).
//   mpi:    one rank per process, started with `mpirun -np N mlsys ...` (MLSYS_WITH_MPI).
//   nccl:   one GPU per process; the ncclUniqueId comes over MPI when running under mpirun, else
//           through a file in comm.nccl_id_dir (rank/size from MLSYS_RANK / MLSYS_WORLD_SIZE).
//
// run_ranks(opts, body) is what commands call: it runs `body` once per rank of this process
// whatever the backend (inproc: comm.world_size threads; mpi/nccl: once, with this process's rank).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"

namespace mlsys::comm {

using RankBody = std::function<void(Communicator&)>;

// Backends compiled into this build ("inproc" always; "mpi", "nccl" when enabled).
std::vector<std::string> available_backends();
bool backend_available(const std::string& backend);
// Throws ConfigError naming the CMake option (MLSYS_WITH_MPI / MLSYS_WITH_CUDA) when not built.
void require_backend(const std::string& backend);

void run_inproc(int world_size, const CommOptions& options, const RankBody& body);
void run_ranks(const CommOptions& options, const RankBody& body);

// This process's communicator for a multi-process backend (mpi, nccl). Initializes MPI if needed
// (and finalizes it at exit). For backend inproc it returns a 1-rank communicator.
std::unique_ptr<Communicator> make_communicator(const CommOptions& options);
std::unique_ptr<Communicator> make_mpi_communicator(const CommOptions& options);
// nccl: `device` is the CUDA ordinal this rank uses (-1: the local rank on its node).
std::unique_ptr<Communicator> make_nccl_communicator(const CommOptions& options, int device);

}  // namespace mlsys::comm
