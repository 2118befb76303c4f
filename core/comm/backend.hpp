#pragma once
// Communicator backends: a table of named backends (comm.backend's choices, with descriptions),
// each registered by one file under core/comm/backends/:
//
//   static const bool registered = backend_registry().add("inproc", "Ranks are threads of this process", [] {
//     return std::make_unique<InprocBackend>();
//   });
//
// A backend says how the ranks of this process get their Communicator. Every backend is registered
// in every build, so the choices, --help and docs/CONFIG.md are the same whatever was compiled;
// `status()` says whether it can be used in this process and, if not, why (not built: the CMake
// option; library missing; no device). mpi is compiled into the core when MPI is found (mpi/);
// nccl lives in the plugin libmlsys_nccl.so (nccl/), loaded with dlopen on first use, whose entry
// point calls register_plugin_communicator: the core links no NCCL or CUDA library.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"
#include "core/registry/registry.hpp"
#include "core/tensor/device_backend.hpp"

namespace mlsys::comm {

using RankBody = std::function<void(Communicator&)>;

class Backend {
 public:
  virtual ~Backend() = default;
  // Ranks are threads of this process (comm.world_size of them) instead of one rank per process.
  virtual bool in_process() const { return false; }
  // Usable in this process, with what it found, or the reason it is not (never throws).
  virtual BackendStatus status() const { return {true, ""}; }
  // This process's communicator. `device`: the CUDA ordinal a device backend uses (-1: the
  // process's local rank on its node).
  virtual std::unique_ptr<Communicator> make(const CommOptions& options, int device) const = 0;
  // Runs `body` once per rank of this process (default: once, with make(options, -1)).
  virtual void run_ranks(const CommOptions& options, const RankBody& body) const;
};

using BackendRegistry = Registry<Backend>;
BackendRegistry& backend_registry();

// The backend `name`; ConfigError when unknown (with the valid names) or unavailable (the reason).
std::unique_ptr<Backend> backend(const std::string& name);

// Communicators that live in a plugin: its entry point registers the constructor and a line for
// `mlsys version` ("NCCL 2.27.3"); the backend entry (backends/<name>.cpp) finds them here.
using CommunicatorFactory = std::function<std::unique_ptr<Communicator>(const CommOptions&, int device)>;
void register_plugin_communicator(const std::string& name, CommunicatorFactory factory, std::string detail);
// The registered constructor and detail, after loading libmlsys_<name>.so if needed; the status
// says why not when the plugin cannot be loaded.
struct PluginCommunicator {
  BackendStatus status;
  CommunicatorFactory factory;
};
PluginCommunicator plugin_communicator(const std::string& name);

}  // namespace mlsys::comm
