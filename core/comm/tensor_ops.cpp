#include "core/comm/tensor_ops.hpp"

#include "core/tensor/device_context.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

bool needs_host_staging(const Communicator& c, const Device& d, const char* op) {
  if (c.accepts(d)) return false;
  if (c.accepts(Device::cpu())) return true;
  throw Error(std::string(op) + ": communicator '" + c.backend() + "' does not take memory of " + d.str() +
              " (nor host memory); put the tensors on its device (device.type: cuda)");
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
