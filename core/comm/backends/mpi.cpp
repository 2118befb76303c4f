// The mpi backend: one rank per process, started with `mpirun -np N mlsys ...`. The implementation
// is core/comm/mpi/ (built with MLSYS_WITH_MPI); registered in every build.
#include "core/comm/backend.hpp"
#include "core/comm/backends.hpp"

namespace mlsys::comm {
namespace {

class MpiBackend final : public Backend {
 public:
#ifdef MLSYS_WITH_MPI
  BackendStatus status() const override { return {true, detail::mpi_library_version()}; }
  std::unique_ptr<Communicator> make(const CommOptions& options, int) const override {
    return detail::create_mpi_communicator(options);
  }
#else
  BackendStatus status() const override {
    return {false, "not built: install libopenmpi-dev (scripts/setup) and reconfigure with -DMLSYS_WITH_MPI=ON"};
  }
  std::unique_ptr<Communicator> make(const CommOptions&, int) const override { return nullptr; }
#endif
};

const bool registered = backend_registry().add(
    "mpi", "MPI: one rank per process, start with `mpirun -np N mlsys ...` (host buffers)",
    [] { return std::make_unique<MpiBackend>(); });

}  // namespace
}  // namespace mlsys::comm
