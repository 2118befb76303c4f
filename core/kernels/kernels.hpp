#pragma once
// One dispatching interface for every compute kernel. Each call takes the DeviceContext explicitly;
// all tensor arguments must live on ctx's device (checked; a mismatch throws Error naming both).
// CPU implementations: core/kernels/cpu/ (OpenBLAS + OpenMP). CUDA twins: core/kernels/cuda/*.cu
// (cuBLAS, cuSPARSE, own kernels), compiled with MLSYS_WITH_CUDA.
//
// Conventions (see kernels.inc for each signature):
//  - f32 data, row-major, contiguous; index arrays i32 or i64; masks u8 (nonzero = keep).
//  - Outputs are preallocated by the caller (no allocation in hot loops) and passed as
//    `const Tensor&` (Tensor is a handle). Unless stated otherwise an output may alias an input
//    of the same shape for element-wise ops.
//  - Backward kernels OVERWRITE input gradients (grad_x, grad_in) and ACCUMULATE (+=) into
//    parameter gradients (grad_w, grad_b, grad_gamma, grad_beta), so layers can sum over calls.
//  - An undefined Tensor() marks an optional argument as absent.
//  - Results are deterministic for a given input and thread count; random ops take a seed and
//    give the same result on every backend and thread count (counter-based RNG).
#include <cstdint>
#include <string>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::kernels {

struct Conv2dParams {
  int stride_h = 1, stride_w = 1;
  int pad_h = 0, pad_w = 0;
};

struct Pool2dParams {
  int kernel_h = 2, kernel_w = 2;
  int stride_h = 2, stride_w = 2;
  int pad_h = 0, pad_w = 0;
};

struct AdamParams {
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.f;
  bool decoupled = false;  // true = AdamW (decay applied to the weights), false = L2 added to the gradient
  int64_t step = 1;        // 1-based step number, for bias correction
};

// Output shape of conv2d for x [N,C,H,W] and w [O,C,KH,KW]; throws Error when it would be empty.
Shape conv2d_output_shape(const Shape& x, const Shape& w, const Conv2dParams& p);
// Output shape of a 2-D pooling of x [N,C,H,W].
Shape pool2d_output_shape(const Shape& x, const Pool2dParams& p);
// The uniform in [0,1) used for element i by dropout with `seed` (same on every backend).
float dropout_uniform(uint64_t seed, uint64_t i);

// The kernels' types, for KernelTable's slots only: declared, never defined (callers use the
// dispatchers below). A backend declares its kernels from the same entries and fills each slot with
// the address of its declared function, so an implementation that is missing, or defined with
// another signature, leaves that function undefined: a link error naming it.
namespace signature {
#define MLSYS_KERNEL(ret, name, params, args) ret name params;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
}  // namespace signature

// One device backend's kernels (DeviceBackend::kernels()): a function pointer per kernel of
// kernels.inc. The host's table is cpu_kernel_table() (kernel_table.hpp); libmlsys_cuda.so fills
// the CUDA one.
struct KernelTable {
#define MLSYS_KERNEL(ret, name, params, args) decltype(&signature::name) name = nullptr;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
  // The names of unset slots, comma-separated ("" when the table is complete).
  std::string missing() const;
};

namespace detail {
// Throws Error naming kernel `fn`, the tensor and ctx's device (out of line: the dispatchers are
// inline in every caller, the message is not).
[[noreturn]] void throw_wrong_device(const DeviceContext& ctx, const char* fn, const Tensor& t);
inline void check_device(const DeviceContext& ctx, const char* fn, const Tensor& t) {
  if (t.defined() && t.numel() > 0 && t.device() != ctx.device()) throw_wrong_device(ctx, fn, t);
}
inline void check_device(const DeviceContext& ctx, const char* fn, const Csr& a) {
  check_device(ctx, fn, a.row_ptr);
  check_device(ctx, fn, a.col);
  check_device(ctx, fn, a.values);
}
// Scalars and parameter structs live on no device.
template <class T>
void check_device(const DeviceContext&, const char*, const T&) {}
// Checks every argument of kernel `fn` against ctx's device, then returns ctx's backend's table.
template <class... Args>
const KernelTable& checked_table(const char* fn, DeviceContext& ctx, const Args&... args) {
  (check_device(ctx, fn, args), ...);
  return ctx.backend().kernels();
}
}  // namespace detail

// The public kernels: one dispatcher per kernel of kernels.inc (its contract is written there),
// generated, so no kernel has a wrapper written by hand. Inline because the parameter list carries
// the callers' defaults, which an out-of-line definition could not repeat; a call costs what the
// hand-written wrappers' did (the device checks, the backend's kernels() and one indirect call)
// less their own call.
#define MLSYS_KERNEL_ARGS(...) __VA_ARGS__
#define MLSYS_KERNEL(ret, name, params, args) \
  inline ret name params { return detail::checked_table(#name, MLSYS_KERNEL_ARGS args).name args; }
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
#undef MLSYS_KERNEL_ARGS

// `a` on ctx's device in the layout that device's spmm_t reads: the host kernel scatters from the
// CSR itself (a transposed copy would take twice the input's memory); a device kernel reads the
// cached transpose (it would otherwise add with atomics, in no fixed order).
Csr for_spmm_t(DeviceContext& ctx, const Csr& a);

}  // namespace mlsys::kernels
