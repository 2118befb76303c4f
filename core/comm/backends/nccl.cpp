// The nccl backend: one GPU per process, device buffers. The implementation is core/comm/nccl/
// (built with CUDA and NCCL); registered in every build.
#include "core/comm/backend.hpp"
#include "core/comm/backends.hpp"

namespace mlsys::comm {
namespace {

class NcclBackend final : public Backend {
 public:
#ifdef MLSYS_WITH_NCCL
  std::unique_ptr<Communicator> make(const CommOptions& options, int device) const override {
    return detail::create_nccl_communicator(options, device);
  }
#else
  bool built() const override { return false; }
  std::string why_not_built() const override {
    return "it needs CUDA and NCCL: reconfigure with -DMLSYS_WITH_CUDA=ON (NCCL found under /usr/local/cuda)";
  }
  std::unique_ptr<Communicator> make(const CommOptions&, int) const override { return nullptr; }
#endif
};

const bool registered = backend_registry().add(
    "nccl", "NCCL: one GPU per process (device buffers); id over MPI under mpirun, else via comm.nccl_id_dir",
    [] { return std::make_unique<NcclBackend>(); });

}  // namespace
}  // namespace mlsys::comm
