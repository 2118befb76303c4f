#include "dataopt/pipeline/exchange.hpp"

#include "core/util/error.hpp"

namespace mlsys::dataopt {

namespace {

// Where the exchanged buffers live: the rank's own memory when the communicator takes it
// (Communicator::accepts: host for inproc/MPI, the device for NCCL), else host staging.
DeviceContext& memory_context(const comm::Communicator& c, DeviceContext& rank_ctx) {
  if (c.accepts(rank_ctx.device())) return rank_ctx;
  if (c.accepts(Device::cpu())) return cpu_context();
  throw ConfigError("comm.backend " + c.backend() + " exchanges device memory: set device.type: cuda (or use comm.backend "
                    "inproc or mpi on the CPU)");
}

}  // namespace

Exchange::Exchange(comm::Communicator& c, DeviceContext& rank_ctx)
    : c_(c), rank_ctx_(rank_ctx), memory_ctx_(memory_context(c, rank_ctx)) {}

Tensor Exchange::staged(const Tensor& t) const { return t.to(memory_ctx_); }

Tensor Exchange::staged_bytes(const void* host, size_t bytes) const {
  const Tensor buf = Tensor::empty({static_cast<int64_t>(bytes)}, DType::u8, memory_ctx_);
  copy_bytes(buf.raw(), buf.device(), host, Device::cpu(), bytes);
  return buf;
}

template <class T>
void Exchange::reduce(std::vector<T>& v, comm::ReduceOp op) {
  if (v.empty()) return;
  const size_t bytes = v.size() * sizeof(T);
  const Tensor buf = staged_bytes(v.data(), bytes);
  c_.all_reduce(buf.raw(), v.size(), dtype_of<T>, op);
  copy_bytes(v.data(), Device::cpu(), buf.raw(), buf.device(), bytes);
}

void Exchange::sum(std::vector<double>& v) { reduce(v, comm::ReduceOp::sum); }
void Exchange::max(std::vector<int64_t>& v) { reduce(v, comm::ReduceOp::max); }

void Exchange::sum(const Tensor& t) {
  if (t.numel() == 0) return;
  const Tensor buf = staged(t);
  c_.all_reduce(buf.raw(), static_cast<size_t>(t.numel()), DType::f32, comm::ReduceOp::sum);
  if (!buf.shares_storage_with(t)) t.copy_from(buf);
}

void Exchange::broadcast(std::vector<char>& bytes, int root) {
  if (bytes.empty()) return;
  const Tensor buf = staged_bytes(bytes.data(), bytes.size());
  c_.broadcast(buf.raw(), bytes.size(), root);
  copy_bytes(bytes.data(), Device::cpu(), buf.raw(), buf.device(), bytes.size());
}

void Exchange::broadcast(const Tensor& t, int root) {
  if (t.numel() == 0) return;
  const Tensor buf = staged(t);
  c_.broadcast(buf.raw(), t.nbytes(), root);
  if (!buf.shares_storage_with(t)) t.copy_from(buf);
}

Tensor Exchange::all_gather_rows(const Tensor& mine, const std::vector<int64_t>& rows, const Shape& row_shape) {
  if (static_cast<int>(rows.size()) != c_.size()) throw Error("all_gather_rows: one row count per rank expected");
  const int64_t row = row_shape.numel();
  std::vector<size_t> bytes;
  int64_t total = 0;
  for (int64_t r : rows) {
    bytes.push_back(static_cast<size_t>(r * row) * sizeof(float));
    total += r;
  }
  std::vector<int64_t> dims{total};
  for (int i = 0; i < row_shape.rank(); ++i) dims.push_back(row_shape[i]);
  const Tensor out = Tensor::empty(Shape::from(dims.begin(), dims.end()), DType::f32, memory_ctx_);
  const Tensor send = mine.defined() && mine.numel() > 0 ? staged(mine) : Tensor();
  c_.all_gather_v(send.defined() ? send.raw() : nullptr, bytes, total > 0 ? out.raw() : nullptr);
  return out.to(rank_ctx_);
}

}  // namespace mlsys::dataopt
