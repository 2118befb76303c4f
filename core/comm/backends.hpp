#pragma once
// The constructor of the mpi backend, defined only in builds that compile mpi/ (its registration in
// backends/ calls it), and the MPI helpers the nccl plugin uses to start up.
#include <memory>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"

namespace mlsys::comm::detail {

#ifdef MLSYS_WITH_MPI
std::unique_ptr<Communicator> create_mpi_communicator(const CommOptions& options);
std::string mpi_library_version();  // "Open MPI v4.1.4", without initializing MPI
// Initializes MPI if needed; a rank missing for longer than timeout_s ends this process with an
// error naming the rank and the operation (MPI_Init cannot be interrupted).
void mpi_init(double timeout_s);
bool mpi_is_initialized();
int mpi_world_rank();
int mpi_world_size();
int mpi_local_rank();                                          // rank among the processes of this node
// On MPI_COMM_WORLD; blocks at most timeout_s (then CommTimeoutError naming rank and operation).
void mpi_broadcast_bytes(void* data, size_t bytes, int root, double timeout_s);
#endif

}  // namespace mlsys::comm::detail
