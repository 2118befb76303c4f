#pragma once
// Constructors of the optional backends, defined only in builds that compile mpi/ or nccl/ (their
// registrations in backends/ call them), and the MPI helpers nccl uses to start up.
#include <memory>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"

namespace mlsys::comm::detail {

#ifdef MLSYS_WITH_MPI
std::unique_ptr<Communicator> create_mpi_communicator(const CommOptions& options);
bool mpi_is_initialized();
int mpi_world_rank();
int mpi_world_size();
int mpi_local_rank();                                          // rank among the processes of this node
void mpi_broadcast_bytes(void* data, size_t bytes, int root);  // on MPI_COMM_WORLD, blocking
#endif
#ifdef MLSYS_WITH_NCCL
std::unique_ptr<Communicator> create_nccl_communicator(const CommOptions& options, int device);
#endif

}  // namespace mlsys::comm::detail
