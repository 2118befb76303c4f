#pragma once
// Collectives on tensors wherever they live. The communicator's capability decides the path:
// when it accepts memory of the tensor's device (Communicator::accepts: inproc/mpi take host
// memory, nccl its GPU's), the tensor's own memory goes to the communicator; otherwise it is staged
// through host memory and copied back. Callers (the GNN trainer, CoOpt) write one code path for
// every device and backend.
//
//   comm::Request r = comm::iall_reduce(c, grad);   // grad on cpu or cuda:N; nccl reduces on the GPU
//   ...
//   r.wait();                                       // grad = sum over ranks
#include "core/comm/communicator.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::comm {

// In place: t = op over ranks of t (any dtype the backend reduces).
Request iall_reduce(Communicator& c, const Tensor& t, ReduceOp op = ReduceOp::sum);
void all_reduce(Communicator& c, const Tensor& t, ReduceOp op = ReduceOp::sum);
// root's t is copied into every rank's t.
void broadcast(Communicator& c, const Tensor& t, int root);

// Whether a collective on memory of `d` goes through host staging on this communicator; throws
// Error when neither `d` nor host memory is accepted (a GPU-only communicator with host tensors).
bool needs_host_staging(const Communicator& c, const Device& d, const char* op);

}  // namespace mlsys::comm
