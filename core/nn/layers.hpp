#pragma once
// The standard layers. Each caches in forward() (training mode) what its backward needs.
#include <cstdint>

#include "core/kernels/kernels.hpp"
#include "core/nn/init.hpp"
#include "core/nn/module.hpp"

namespace mlsys::nn {

// y = x W^T + b, x [N, in], W [out, in] (PyTorch layout), b [out]. Init: U(-1/sqrt(in), 1/sqrt(in)),
// or Kaiming uniform from the caller's Rng (core/nn/init.hpp).
class Linear : public Module {
 public:
  Linear(DeviceContext& ctx, int64_t in_features, int64_t out_features, uint64_t seed = 1, bool bias = true);
  Linear(DeviceContext& ctx, int64_t in_features, int64_t out_features, KaimingUniform init, bool bias = true);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "Linear"; }
  std::vector<Parameter*> parameters() override;
  Parameter& weight() { return weight_; }
  Parameter& bias() { return bias_; }  // value undefined when built without bias

 private:
  Parameter weight_, bias_;
  Tensor input_;
};

class ReLU : public Module {
 public:
  explicit ReLU(DeviceContext& ctx) : Module(ctx) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "ReLU"; }

 private:
  Tensor input_;
};

class LeakyReLU : public Module {
 public:
  explicit LeakyReLU(DeviceContext& ctx, float slope = 0.01f) : Module(ctx), slope_(slope) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "LeakyReLU"; }

 private:
  float slope_;
  Tensor input_;
};

class ELU : public Module {
 public:
  explicit ELU(DeviceContext& ctx, float alpha = 1.f) : Module(ctx), alpha_(alpha) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "ELU"; }

 private:
  float alpha_;
  Tensor input_;
};

// Inverted dropout; call i uses seed mix(seed, i) so runs are reproducible. Identity in eval mode.
class Dropout : public Module {
 public:
  Dropout(DeviceContext& ctx, float p, uint64_t seed = 1);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "Dropout"; }

 private:
  float p_;
  uint64_t seed_;
  uint64_t calls_ = 0;
  Tensor mask_;
  bool applied_ = false;
};

// Over the last dimension of x [N, F]; gamma = 1, beta = 0 initially.
class LayerNorm : public Module {
 public:
  LayerNorm(DeviceContext& ctx, int64_t features, float eps = 1e-5f);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "LayerNorm"; }
  std::vector<Parameter*> parameters() override { return {&gamma_, &beta_}; }

 private:
  float eps_;
  Parameter gamma_, beta_;
  Tensor input_, mean_, rstd_;
};

// Each row scaled to unit L2 norm, y = x / max(||x||, eps) (e.g. embeddings before a contrastive loss).
class L2Normalize : public Module {
 public:
  explicit L2Normalize(DeviceContext& ctx, float eps = 1e-12f) : Module(ctx), eps_(eps) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "L2Normalize"; }

 private:
  float eps_;
  Tensor output_, norm_;
};

// NCHW convolution, W [out, in, k, k]; init U(-1/sqrt(in*k*k), +), or Kaiming uniform (fan_in in*k*k).
class Conv2d : public Module {
 public:
  Conv2d(DeviceContext& ctx, int64_t in_channels, int64_t out_channels, int kernel, int stride = 1, int padding = 0,
         uint64_t seed = 1, bool bias = true);
  Conv2d(DeviceContext& ctx, int64_t in_channels, int64_t out_channels, int kernel, int stride, int padding,
         KaimingUniform init, bool bias = true);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "Conv2d"; }
  std::vector<Parameter*> parameters() override;

 private:
  kernels::Conv2dParams params_;
  Parameter weight_, bias_;
  Tensor input_;
};

class MaxPool2d : public Module {
 public:
  MaxPool2d(DeviceContext& ctx, int kernel, int stride = 0 /* = kernel */, int padding = 0);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "MaxPool2d"; }

 private:
  kernels::Pool2dParams params_;
  Tensor argmax_;
  Shape input_shape_;
};

class AvgPool2d : public Module {
 public:
  AvgPool2d(DeviceContext& ctx, int kernel, int stride = 0 /* = kernel */, int padding = 0);
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "AvgPool2d"; }

 private:
  kernels::Pool2dParams params_;
  Shape input_shape_;
};

// [N, ...] -> [N, rest] (a view; backward restores the input shape).
class Flatten : public Module {
 public:
  explicit Flatten(DeviceContext& ctx) : Module(ctx) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "Flatten"; }

 private:
  Shape input_shape_;
};

}  // namespace mlsys::nn
