// The dispatchers' out-of-line parts. The dispatchers themselves are generated inline from
// kernels.inc (kernels.hpp).
#include "core/kernels/kernels.hpp"

namespace mlsys::kernels {

namespace detail {
void throw_wrong_device(const DeviceContext& ctx, const char* fn, const Tensor& t) {
  throw Error(std::string("kernels::") + fn + ": tensor " + t.str() + " is not on the context's device " +
              ctx.device().str() + " (copy it with .to(ctx) first)");
}
}  // namespace detail

Csr for_spmm_t(DeviceContext& ctx, const Csr& a) { return ctx.device().is_cpu() ? a : a.with_transpose().to(ctx); }

}  // namespace mlsys::kernels
