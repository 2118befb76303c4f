#pragma once
// Making communicators from the `comm:` config section (the backends are a table: backend.hpp).
//
// run_ranks(opts, body) is what commands call: it runs `body` once per rank of this process
// whatever the backend (inproc: comm.world_size threads; mpi/nccl: once, with this process's rank).
// run_inproc(n, opts, body) starts n inproc ranks directly and rethrows the first failure (the root
// cause, not the "aborted because rank k failed" errors it triggers in the other ranks).
#include <memory>
#include <string>
#include <vector>

#include "core/comm/backend.hpp"
#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"

namespace mlsys::comm {

// Backends usable in this process ("inproc" always; "mpi" when built; "nccl" when its plugin, the
// NCCL library and a GPU are there).
std::vector<std::string> available_backends();
bool backend_available(const std::string& name);
// Throws ConfigError with the reason (not built: the CMake option; library missing; no device).
void require_backend(const std::string& name);
// Every device and communicator backend, one line each, available or not with the reason: what
// `mlsys version` lists. Loads a plugin only when the driver reports a GPU.
std::string backends_report();

void run_inproc(int world_size, const CommOptions& options, const RankBody& body);
void run_ranks(const CommOptions& options, const RankBody& body);

// This process's communicator for comm.backend (initializing MPI if needed, finalized at exit).
// For backend inproc it returns a 1-rank communicator (more ranks: run_ranks / run_inproc).
std::unique_ptr<Communicator> make_communicator(const CommOptions& options);

}  // namespace mlsys::comm
