// Optimizer updates on the host.
#include <omp.h>

#include <cmath>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

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
  const float step_size = a.lr / bc1, inv_sqrt_bc2 = 1.f / std::sqrt(bc2);
  const int64_t n = param.numel();
#pragma omp parallel for simd schedule(static) if (n > 65536)
  for (int64_t i = 0; i < n; ++i) {
    float gi = g[i];
    if (a.decoupled) p[i] -= a.lr * a.weight_decay * p[i];
    else gi += a.weight_decay * p[i];
    mp[i] = a.beta1 * mp[i] + (1.f - a.beta1) * gi;
    vp[i] = a.beta2 * vp[i] + (1.f - a.beta2) * gi * gi;
    p[i] -= step_size * mp[i] / (std::sqrt(vp[i]) * inv_sqrt_bc2 + a.eps);
  }
}

}  // namespace mlsys::kernels::cpu
