#pragma once
// The participant phase's collectives, on the memory the communicator takes
// (Communicator::memory()): host memory for inproc and MPI ranks, device memory for NCCL. Values
// that live elsewhere are staged through a buffer on that memory and copied back, so the phase
// runs the same code whatever the device and the backend. NCCL needs the ranks' contexts on CUDA
// (ConfigError otherwise).
#include <cstdint>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

class Exchange {
 public:
  Exchange(comm::Communicator& c, DeviceContext& rank_ctx);
  comm::Communicator& comm() const { return c_; }

  // In place, every rank: the element-wise sum (max) over ranks.
  void sum(std::vector<double>& v);
  void max(std::vector<int64_t>& v);
  void sum(const Tensor& t);  // f32, any device
  // root's value to every rank, in place.
  void broadcast(std::vector<char>& bytes, int root);
  void broadcast(const Tensor& t, int root);
  // Every rank's `mine` (rows of `row_shape`, rank r holding rows[r] of them; may be undefined when
  // it holds none), concatenated in rank order, as a new tensor on the rank's context.
  Tensor all_gather_rows(const Tensor& mine, const std::vector<int64_t>& rows, const Shape& row_shape);

 private:
  // `t` itself when it is on the communicator's memory, else a copy there.
  Tensor staged(const Tensor& t) const;
  // A copy of `bytes` host bytes on the communicator's memory.
  Tensor staged_bytes(const void* host, size_t bytes) const;
  template <class T>
  void reduce(std::vector<T>& v, comm::ReduceOp op);

  comm::Communicator& c_;
  DeviceContext& rank_ctx_;
  DeviceContext& memory_ctx_;  // where collectives' buffers live
};

}  // namespace mlsys::dataopt
