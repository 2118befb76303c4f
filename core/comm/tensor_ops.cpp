#include "core/comm/tensor_ops.hpp"

#include <algorithm>

#include "core/tensor/device_context.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

bool needs_host_staging(const Communicator& c, const Device& d, const char* op) {
  if (c.accepts(d)) return false;
  if (c.accepts(Device::cpu())) return true;
  throw Error(std::string(op) + ": communicator '" + c.backend() + "' does not take memory of " + d.str() +
              " (nor host memory); put the tensors on its device (device.type: cuda)");
}

namespace {
// A copy of `bytes` host bytes on `via`'s device, for a communicator that takes no host memory.
Tensor device_copy(const Communicator& c, DeviceContext& via, const void* host, size_t bytes, const char* op) {
  if (!c.accepts(via.device()))
    throw Error(std::string(op) + ": communicator '" + c.backend() + "' takes neither host memory nor memory of " +
                via.device().str() + "; put the rank on its device (device.type: cuda)");
  Tensor buf = Tensor::empty({static_cast<int64_t>(std::max<size_t>(bytes, 1))}, DType::u8, via);
  if (host && bytes) copy_bytes(buf.raw(), buf.device(), host, Device::cpu(), bytes);
  return buf;
}
size_t total(std::span<const size_t> v) {
  size_t s = 0;
  for (size_t x : v) s += x;
  return s;
}
}  // namespace

void all_reduce_host(Communicator& c, DeviceContext& via, void* data, size_t count, DType dtype, ReduceOp op) {
  if (c.accepts(Device::cpu())) return c.all_reduce(data, count, dtype, op);
  const size_t bytes = count * dtype_size(dtype);
  const Tensor buf = device_copy(c, via, data, bytes, "all_reduce");
  c.all_reduce(buf.raw(), count, dtype, op);
  if (bytes) copy_bytes(data, Device::cpu(), buf.raw(), buf.device(), bytes);
}

void all_to_all_v_host(Communicator& c, DeviceContext& via, const void* send, std::span<const size_t> send_bytes,
                       void* recv, std::span<const size_t> recv_bytes) {
  if (c.accepts(Device::cpu())) return c.all_to_all_v(send, send_bytes, recv, recv_bytes);
  const Tensor s = device_copy(c, via, send, total(send_bytes), "all_to_all_v");
  const Tensor r = device_copy(c, via, nullptr, total(recv_bytes), "all_to_all_v");
  c.all_to_all_v(s.raw(), send_bytes, r.raw(), recv_bytes);
  if (total(recv_bytes)) copy_bytes(recv, Device::cpu(), r.raw(), r.device(), total(recv_bytes));
}

Request iall_reduce(Communicator& c, const Tensor& t, ReduceOp op) {
  if (!needs_host_staging(c, t.device(), "all_reduce"))
    return c.iall_reduce(t.raw(), static_cast<size_t>(t.numel()), t.dtype(), op);
  Tensor host = t.to(cpu_context());
  Request r = c.iall_reduce(host.raw(), static_cast<size_t>(host.numel()), host.dtype(), op);
  r.then([t, host] { t.copy_from(host); });
  return r;
}

void all_reduce(Communicator& c, const Tensor& t, ReduceOp op) { iall_reduce(c, t, op).wait(); }

void broadcast(Communicator& c, const Tensor& t, int root) {
  if (!needs_host_staging(c, t.device(), "broadcast")) {
    c.broadcast(t.raw(), t.nbytes(), root);
    return;
  }
  Tensor host = t.to(cpu_context());
  c.broadcast(host.raw(), host.nbytes(), root);
  t.copy_from(host);
}

}  // namespace mlsys::comm
