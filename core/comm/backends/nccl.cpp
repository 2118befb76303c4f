// The nccl backend: one GPU per process, device buffers. The communicator lives in the plugin
// libmlsys_nccl.so (core/comm/nccl/), loaded on first use; registered in every build.
#include "core/comm/backend.hpp"
#include "core/tensor/plugin.hpp"

namespace mlsys::comm {
namespace {

class NcclBackend final : public Backend {
 public:
  BackendStatus status() const override {
    if (!plugin::find("nccl"))
      return {false, "library missing: " + plugin::file_name("nccl") + " not found in " + plugin::search_path_text() +
                         " (it is built with -DMLSYS_WITH_CUDA=ON when NCCL is found under /usr/local/cuda)"};
    BackendStatus cuda = device_backend_status(Device::Kind::cuda);
    if (!cuda.available) return {false, "needs the cuda device backend, which is unavailable: " + cuda.detail};
    return plugin_communicator("nccl").status;
  }
  std::unique_ptr<Communicator> make(const CommOptions& options, int device) const override {
    auto p = plugin_communicator("nccl");
    if (!p.status.available) throw ConfigError("comm.backend 'nccl' is unavailable: " + p.status.detail);
    return p.factory(options, device);
  }
};

const bool registered = backend_registry().add(
    "nccl", "NCCL: one GPU per process (device buffers); id over MPI under mpirun, else via comm.nccl_id_dir",
    [] { return std::make_unique<NcclBackend>(); });

}  // namespace
}  // namespace mlsys::comm
