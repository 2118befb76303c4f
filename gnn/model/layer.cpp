#include "gnn/model/layer.hpp"

#include <cmath>

#include "core/kernels/kernels.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

nn::Parameter make_param(DeviceContext& ctx, const std::string& name, int64_t rows, int64_t cols, float bound, uint64_t seed,
                 bool decay) {
  std::vector<float> v(static_cast<size_t>(rows * cols), 0.0f);
  Rng r(seed);
  if (bound > 0)
    for (auto& x : v) x = static_cast<float>((2.0 * r.uniform() - 1.0) * bound);
  Shape s = rows == 1 ? Shape{cols} : Shape{rows, cols};
  nn::Parameter p;
  p.name = name;
  // Straight into ctx's pool: a host copy would come from the shared host pool and stay cached there.
  p.value = Tensor::empty(s, DType::f32, ctx);
  p.value.copy_from(Tensor::wrap(v.data(), s, DType::f32));
  p.grad = Tensor::zeros(s, DType::f32, ctx);
  p.decay = decay;
  return p;
}

float glorot(int in, int out) { return std::sqrt(6.0f / static_cast<float>(in + out)); }

bool input_is_local(const ForwardEnv& env, int slot) { return slot == 0 && env.local_input; }

Tensor exchange(ForwardEnv& env, int slot, const Tensor& t) {
  if (input_is_local(env, slot)) return t;
  return env.exact ? env.ex.forward_exact(t) : env.ex.forward(slot, t);
}

Tensor exchange_back(ForwardEnv& env, int slot, const Tensor& g_ext) {
  return input_is_local(env, slot) ? g_ext : env.ex.backward(slot, g_ext);
}

Tensor matmul_t(ForwardEnv& env, const Tensor& g, const Tensor& w) {
  Tensor y = Tensor::empty({g.rows(), w.dim(0)}, DType::f32, env.ctx);
  k::gemm(env.ctx, g, false, w, true, y);
  return y;
}

void acc_weight_grad(ForwardEnv& env, const Tensor& x, const Tensor& g, nn::Parameter& w) {
  k::gemm(env.ctx, x, true, g, false, grad_of(env.ctx, w), 1.0f, 1.0f);
}

const Tensor& grad_of(DeviceContext& ctx, nn::Parameter& p) {
  if (!p.grad.defined()) {
    p.grad = Tensor::empty(p.value.shape(), DType::f32, ctx);
    k::fill(ctx, p.grad, 0.0f);  // on ctx's stream (Tensor::zeros clears on the device's default one)
  }
  return p.grad;
}

}  // namespace mlsys::gnn
