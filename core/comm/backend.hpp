#pragma once
// Communicator backends: a table of named backends (comm.backend's choices, with descriptions),
// each registered by one file under core/comm/backends/:
//
//   static const bool registered = backend_registry().add("inproc", "Ranks are threads of this process", [] {
//     return std::make_unique<InprocBackend>();
//   });
//
// A backend says how the ranks of this process get their Communicator. One that needs an optional
// library (MPI, NCCL) keeps its implementation in a folder of that name (compiled only when the
// library is enabled, cmake/mlsys_module.cmake) and is registered in every build: where it is not built,
// `built()` is false and `why_not_built()` names the CMake option, so the choices, --help and
// docs/CONFIG.md are the same in every build and a user learns how to get the backend.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"
#include "core/registry/registry.hpp"

namespace mlsys::comm {

using RankBody = std::function<void(Communicator&)>;

class Backend {
 public:
  virtual ~Backend() = default;
  // Ranks are threads of this process (comm.world_size of them) instead of one rank per process.
  virtual bool in_process() const { return false; }
  virtual bool built() const { return true; }
  virtual std::string why_not_built() const { return ""; }
  // This process's communicator. `device`: the CUDA ordinal a device backend uses (-1: the
  // process's local rank on its node).
  virtual std::unique_ptr<Communicator> make(const CommOptions& options, int device) const = 0;
  // Runs `body` once per rank of this process (default: once, with make(options, -1)).
  virtual void run_ranks(const CommOptions& options, const RankBody& body) const;
};

using BackendRegistry = Registry<Backend>;
BackendRegistry& backend_registry();

// The backend `name`; ConfigError when unknown (with the valid names) or not built into this mlsys.
std::unique_ptr<Backend> backend(const std::string& name);

}  // namespace mlsys::comm
