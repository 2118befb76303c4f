#include "core/nn/layers.hpp"

#include <cmath>

namespace mlsys::nn {

namespace {
// U(-bound, bound) from the project's one RNG (init.hpp), so a seed gives the same weights with
// any standard library.
Tensor uniform_host(const Shape& s, float bound, uint64_t seed) {
  Rng rng(seed);
  return uniform_tensor(rng, s, bound);
}
void require_cached(const Tensor& t, const std::string& layer) {
  if (!t.defined()) throw Error(layer + "::backward called without a training-mode forward");
}
Tensor zeros_host(int64_t n) { return Tensor::from_vector(std::vector<float>(static_cast<size_t>(n), 0.f)); }
}  // namespace

// ---------------- Linear ----------------
Linear::Linear(DeviceContext& ctx, int64_t in, int64_t out, uint64_t seed, bool bias) : Module(ctx) {
  const float bound = in > 0 ? 1.f / std::sqrt(static_cast<float>(in)) : 0.f;
  weight_ = make_parameter("weight", uniform_host({out, in}, bound, seed));
  if (bias) bias_ = make_parameter("bias", uniform_host({out}, bound, seed ^ 0x5bd1e995ull));
  else bias_.name = "bias";
}

Linear::Linear(DeviceContext& ctx, int64_t in, int64_t out, KaimingUniform init, bool bias) : Module(ctx) {
  weight_ = make_parameter("weight", kaiming_uniform(init.rng, {out, in}, in));
  if (bias) bias_ = make_parameter("bias", zeros_host(out));
  else bias_.name = "bias";
}

std::vector<Parameter*> Linear::parameters() {
  if (bias_.value.defined()) return {&weight_, &bias_};
  return {&weight_};
}

Tensor Linear::forward(const Tensor& x) {
  const int64_t in = weight_.value.dim(1), out = weight_.value.dim(0);
  if (x.row_numel() != in) throw Error("Linear: input " + x.str() + " has rows of " + std::to_string(x.row_numel()) +
                                       " features, expected " + std::to_string(in));
  Tensor x2 = x.reshape({x.rows(), in});
  Tensor y = output_like({x.rows(), out});
  kernels::gemm(ctx_, x2, false, weight_.value, true, y);
  if (bias_.value.defined()) kernels::add_row_vector(ctx_, y, bias_.value, y);
  if (training_) input_ = x2;
  return y;
}

Tensor Linear::backward(const Tensor& g) {
  require_cached(input_, "Linear");
  kernels::gemm(ctx_, g, true, input_, false, weight_.grad, 1.f, 1.f);
  if (bias_.value.defined()) kernels::col_sum(ctx_, g, bias_.grad, 1.f);
  if (!input_grad_) return Tensor();
  Tensor gx = output_like(input_.shape());
  kernels::gemm(ctx_, g, false, weight_.value, false, gx);
  return gx;
}

// ---------------- activations ----------------
Tensor ReLU::forward(const Tensor& x) {
  Tensor y = output_like(x.shape());
  kernels::relu(ctx_, x, y);
  if (training_) input_ = x;
  return y;
}
Tensor ReLU::backward(const Tensor& g) {
  require_cached(input_, "ReLU");
  Tensor gx = output_like(g.shape());
  kernels::relu_backward(ctx_, input_, g, gx);
  return gx;
}

Tensor LeakyReLU::forward(const Tensor& x) {
  Tensor y = output_like(x.shape());
  kernels::leaky_relu(ctx_, x, y, slope_);
  if (training_) input_ = x;
  return y;
}
Tensor LeakyReLU::backward(const Tensor& g) {
  require_cached(input_, "LeakyReLU");
  Tensor gx = output_like(g.shape());
  kernels::leaky_relu_backward(ctx_, input_, g, gx, slope_);
  return gx;
}

Tensor ELU::forward(const Tensor& x) {
  Tensor y = output_like(x.shape());
  kernels::elu(ctx_, x, y, alpha_);
  if (training_) input_ = x;
  return y;
}
Tensor ELU::backward(const Tensor& g) {
  require_cached(input_, "ELU");
  Tensor gx = output_like(g.shape());
  kernels::elu_backward(ctx_, input_, g, gx, alpha_);
  return gx;
}

// ---------------- Dropout ----------------
Dropout::Dropout(DeviceContext& ctx, float p, uint64_t seed) : Module(ctx), p_(p), seed_(seed) {
  if (!(p >= 0.f && p < 1.f)) throw ConfigError("dropout probability must be in [0, 1), got " + std::to_string(p));
}

Tensor Dropout::forward(const Tensor& x) {
  applied_ = training_ && p_ > 0.f;
  if (!applied_) return x;
  Tensor y = output_like(x.shape());
  mask_ = Tensor::empty(x.shape(), DType::u8, ctx_);
  const uint64_t call_seed = seed_ * 0x9e3779b97f4a7c15ull + (calls_++) * 0xbf58476d1ce4e5b9ull + 1;
  kernels::dropout(ctx_, x, y, mask_, p_, call_seed);
  return y;
}

Tensor Dropout::backward(const Tensor& g) {
  if (!applied_) return g;
  Tensor gx = output_like(g.shape());
  kernels::dropout_backward(ctx_, g, mask_, p_, gx);
  return gx;
}

// ---------------- LayerNorm ----------------
LayerNorm::LayerNorm(DeviceContext& ctx, int64_t features, float eps) : Module(ctx), eps_(eps) {
  gamma_ = make_parameter("gamma", Tensor::full({features}, 1.f));
  beta_ = make_parameter("beta", Tensor::full({features}, 0.f));
}

Tensor LayerNorm::forward(const Tensor& x) {
  const int64_t n = x.rows();
  Tensor y = output_like(x.shape());
  Tensor mean = output_like({n}), rstd = output_like({n});
  kernels::layer_norm(ctx_, x, gamma_.value, beta_.value, eps_, y, mean, rstd);
  if (training_) input_ = x, mean_ = mean, rstd_ = rstd;
  return y;
}

Tensor LayerNorm::backward(const Tensor& g) {
  require_cached(input_, "LayerNorm");
  Tensor gx = output_like(input_.shape());
  kernels::layer_norm_backward(ctx_, input_, gamma_.value, mean_, rstd_, g, gx, gamma_.grad, beta_.grad);
  return gx;
}

Tensor L2Normalize::forward(const Tensor& x) {
  Tensor y = output_like(x.shape());
  Tensor norm = output_like({x.rows()});
  kernels::l2_normalize_rows(ctx_, x, y, norm, eps_);
  if (training_) output_ = y, norm_ = norm;
  return y;
}

Tensor L2Normalize::backward(const Tensor& g) {
  require_cached(output_, "L2Normalize");
  Tensor gx = output_like(output_.shape());
  kernels::l2_normalize_rows_backward(ctx_, output_, norm_, g, gx, eps_);
  return gx;
}

// ---------------- Conv2d and pooling ----------------
Conv2d::Conv2d(DeviceContext& ctx, int64_t in_c, int64_t out_c, int kernel, int stride, int padding, uint64_t seed,
               bool bias)
    : Module(ctx) {
  params_.stride_h = params_.stride_w = stride;
  params_.pad_h = params_.pad_w = padding;
  const float bound = 1.f / std::sqrt(static_cast<float>(std::max<int64_t>(1, in_c * kernel * kernel)));
  weight_ = make_parameter("weight", uniform_host({out_c, in_c, kernel, kernel}, bound, seed));
  if (bias) bias_ = make_parameter("bias", uniform_host({out_c}, bound, seed ^ 0x5bd1e995ull));
  else bias_.name = "bias";
}

Conv2d::Conv2d(DeviceContext& ctx, int64_t in_c, int64_t out_c, int kernel, int stride, int padding, KaimingUniform init,
               bool bias)
    : Module(ctx) {
  params_.stride_h = params_.stride_w = stride;
  params_.pad_h = params_.pad_w = padding;
  weight_ = make_parameter("weight", kaiming_uniform(init.rng, {out_c, in_c, kernel, kernel}, in_c * kernel * kernel));
  if (bias) bias_ = make_parameter("bias", zeros_host(out_c));
  else bias_.name = "bias";
}

std::vector<Parameter*> Conv2d::parameters() {
  if (bias_.value.defined()) return {&weight_, &bias_};
  return {&weight_};
}

Tensor Conv2d::forward(const Tensor& x) {
  Tensor y = output_like(kernels::conv2d_output_shape(x.shape(), weight_.value.shape(), params_));
  kernels::conv2d(ctx_, x, weight_.value, bias_.value, y, params_);
  if (training_) input_ = x;
  return y;
}

Tensor Conv2d::backward(const Tensor& g) {
  require_cached(input_, "Conv2d");
  Tensor gx = input_grad_ ? output_like(input_.shape()) : Tensor();
  kernels::conv2d_backward(ctx_, input_, weight_.value, g, gx, weight_.grad, bias_.grad, params_);
  return gx;
}

static kernels::Pool2dParams pool_params(int kernel, int stride, int padding) {
  kernels::Pool2dParams p;
  p.kernel_h = p.kernel_w = kernel;
  p.stride_h = p.stride_w = stride > 0 ? stride : kernel;
  p.pad_h = p.pad_w = padding;
  return p;
}

MaxPool2d::MaxPool2d(DeviceContext& ctx, int kernel, int stride, int padding)
    : Module(ctx), params_(pool_params(kernel, stride, padding)) {}

Tensor MaxPool2d::forward(const Tensor& x) {
  Shape os = kernels::pool2d_output_shape(x.shape(), params_);
  Tensor y = output_like(os);
  Tensor argmax = Tensor::empty(os, DType::i32, ctx_);
  kernels::max_pool2d(ctx_, x, y, argmax, params_);
  if (training_) argmax_ = argmax, input_shape_ = x.shape();
  return y;
}

Tensor MaxPool2d::backward(const Tensor& g) {
  require_cached(argmax_, "MaxPool2d");
  Tensor gx = output_like(input_shape_);
  kernels::max_pool2d_backward(ctx_, g, argmax_, gx, params_);
  return gx;
}

AvgPool2d::AvgPool2d(DeviceContext& ctx, int kernel, int stride, int padding)
    : Module(ctx), params_(pool_params(kernel, stride, padding)) {}

Tensor AvgPool2d::forward(const Tensor& x) {
  Tensor y = output_like(kernels::pool2d_output_shape(x.shape(), params_));
  kernels::avg_pool2d(ctx_, x, y, params_);
  input_shape_ = x.shape();
  return y;
}

Tensor AvgPool2d::backward(const Tensor& g) {
  if (input_shape_.rank() != 4) throw Error("AvgPool2d::backward called before forward");
  Tensor gx = output_like(input_shape_);
  kernels::avg_pool2d_backward(ctx_, g, gx, params_);
  return gx;
}

Tensor Flatten::forward(const Tensor& x) {
  input_shape_ = x.shape();
  return x.reshape({x.rows(), x.row_numel()});
}

Tensor Flatten::backward(const Tensor& g) { return g.reshape(input_shape_); }

}  // namespace mlsys::nn
