// Optimizer updates on the host.
#include <omp.h>

#include <cmath>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {

struct AdamCoeffs {
  float beta1, beta2, eps, wd, lr_wd, step_size, inv_sqrt_bc2;
};

// One Adam update of elements [0, n); Decoupled: AdamW. A separate loop per variant so each one
// vectorizes (a branch on the variant inside the loop kept it scalar).
template <bool Decoupled>
void adam_update(float* __restrict p, const float* __restrict g, float* __restrict mp, float* __restrict vp, int64_t n,
                 const AdamCoeffs& c) {
  const AdamCoeffs k = c;
#pragma omp parallel for simd schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) {
    float gi = g[i];
    if constexpr (Decoupled) p[i] -= k.lr_wd * p[i];
    else gi += k.wd * p[i];
    mp[i] = k.beta1 * mp[i] + (1.f - k.beta1) * gi;
    vp[i] = k.beta2 * vp[i] + (1.f - k.beta2) * gi * gi;
    p[i] -= k.step_size * mp[i] / (std::sqrt(vp[i]) * k.inv_sqrt_bc2 + k.eps);
  }
}

}  // namespace

void sgd_step(DeviceContext&, const Tensor& param, const Tensor& grad, const Tensor& buf, float lr, float momentum,
              float wd, bool nesterov) {
  require_f32(param, "sgd_step", "param");
  require_f32(grad, "sgd_step", "grad");
  require_same_numel(param, grad, "sgd_step");
  if (momentum != 0.f) {
    require_f32(buf, "sgd_step", "momentum_buf");
    require_same_numel(param, buf, "sgd_step");
  }
  float* p = param.data<float>();
  const float* g = grad.data<float>();
  float* b = momentum != 0.f ? buf.data<float>() : nullptr;
  const int64_t n = param.numel();
#pragma omp parallel for simd schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) {
    float gi = g[i] + wd * p[i];
    if (b) {
      b[i] = momentum * b[i] + gi;
      gi = nesterov ? gi + momentum * b[i] : b[i];
    }
    p[i] -= lr * gi;
  }
}

// The update reads every weight, gradient and moment once per step, so it is memory-bound and
// must vectorize: this file is compiled with -fno-math-errno (core/CMakeLists.txt; a moment
// estimate is never negative, so sqrt never sets errno), which lets the compiler use packed
// square roots. Packed and scalar IEEE operations round alike: the results are those of the
// scalar loop.
void adam_step(DeviceContext&, const Tensor& param, const Tensor& grad, const Tensor& m, const Tensor& v,
               const AdamParams& a) {
  require_f32(param, "adam_step", "param");
  require_f32(grad, "adam_step", "grad");
  require_f32(m, "adam_step", "m");
  require_f32(v, "adam_step", "v");
  require_same_numel(param, grad, "adam_step");
  require_same_numel(param, m, "adam_step");
  require_same_numel(param, v, "adam_step");
  if (a.step < 1) throw Error("kernels::adam_step: step must be >= 1");
  float* p = param.data<float>();
  const float* g = grad.data<float>();
  float* mp = m.data<float>();
  float* vp = v.data<float>();
  const float bc1 = 1.f - std::pow(a.beta1, static_cast<float>(a.step));
  const float bc2 = 1.f - std::pow(a.beta2, static_cast<float>(a.step));
  const AdamCoeffs c{a.beta1, a.beta2, a.eps, a.weight_decay, a.lr * a.weight_decay, a.lr / bc1, 1.f / std::sqrt(bc2)};
  if (a.decoupled) adam_update<true>(p, g, mp, vp, param.numel(), c);
  else adam_update<false>(p, g, mp, vp, param.numel(), c);
}

}  // namespace mlsys::kernels::cpu
