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
#include <span>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::comm {

// In place: t = op over ranks of t (any dtype the backend reduces).
Request iall_reduce(Communicator& c, const Tensor& t, ReduceOp op = ReduceOp::sum);
void all_reduce(Communicator& c, const Tensor& t, ReduceOp op = ReduceOp::sum);
// root's t is copied into every rank's t.
void broadcast(Communicator& c, const Tensor& t, int root);

// Host values (split totals, epoch records, metric counts, a one-time input halo) on any
// communicator: `data` itself when the communicator takes host memory, else through a buffer on
// `via`'s device (a GPU-only communicator: nccl takes the rank's device memory) and back. Error
// when it takes neither. Counts in bytes as Communicator's.
void all_reduce_host(Communicator& c, DeviceContext& via, void* data, size_t count, DType dtype,
                     ReduceOp op = ReduceOp::sum);
void all_to_all_v_host(Communicator& c, DeviceContext& via, const void* send, std::span<const size_t> send_bytes,
                       void* recv, std::span<const size_t> recv_bytes);
// Element counts.
template <class T>
void all_to_all_v_host(Communicator& c, DeviceContext& via, std::span<const T> send, std::span<const size_t> send_counts,
                       std::span<T> recv, std::span<const size_t> recv_counts) {
  std::vector<size_t> sb, rb;
  for (size_t n : send_counts) sb.push_back(n * sizeof(T));
  for (size_t n : recv_counts) rb.push_back(n * sizeof(T));
  all_to_all_v_host(c, via, send.data(), sb, recv.data(), rb);
}

// Whether a collective on memory of `d` goes through host staging on this communicator; throws
// Error when neither `d` nor host memory is accepted (a GPU-only communicator with host tensors).
bool needs_host_staging(const Communicator& c, const Device& d, const char* op);

}  // namespace mlsys::comm
