#include "core/nn/loss.hpp"

#include "core/kernels/kernels.hpp"

namespace mlsys::nn {

float CrossEntropyLoss::forward(const Tensor& logits, const Tensor& labels, const Tensor& mask) {
  grad_ = Tensor::empty(logits.shape(), DType::f32, ctx_);
  return kernels::cross_entropy(ctx_, logits, labels, mask, grad_);
}

float NllLoss::forward(const Tensor& logp, const Tensor& labels, const Tensor& mask) {
  grad_ = Tensor::empty(logp.shape(), DType::f32, ctx_);
  return kernels::nll_loss(ctx_, logp, labels, mask, grad_);
}

Tensor LogSoftmax::forward(const Tensor& x) {
  Tensor y = output_like(x.shape());
  kernels::log_softmax(ctx_, x, y);
  if (training_) output_ = y;
  return y;
}

Tensor LogSoftmax::backward(const Tensor& g) {
  if (!output_.defined()) throw Error("LogSoftmax::backward called without a training-mode forward");
  Tensor gx = output_like(g.shape());
  kernels::log_softmax_backward(ctx_, output_, g, gx);
  return gx;
}

float CosineSimilarityLoss::forward(const Tensor& a, const Tensor& b, const Tensor& row_weight) {
  grad_a_ = Tensor::empty(a.shape(), DType::f32, ctx_);
  grad_b_ = Tensor::empty(b.shape(), DType::f32, ctx_);
  return kernels::cosine_similarity_loss(ctx_, a, b, grad_a_, grad_b_, eps_, row_weight);
}

float MseLoss::forward(const Tensor& pred, const Tensor& target) {
  check_shape(target, pred.shape(), "MseLoss target");
  grad_ = Tensor::empty(pred.shape(), DType::f32, ctx_);
  const int64_t n = pred.numel();
  if (n == 0) return 0.f;
  kernels::scale(ctx_, pred, 1.f, grad_);
  kernels::axpy(ctx_, -1.f, target, grad_);  // grad = pred - target
  const double loss = kernels::sum_squares(ctx_, grad_) / static_cast<double>(n);
  kernels::scale(ctx_, grad_, static_cast<float>(2.0 / static_cast<double>(n)), grad_);
  return static_cast<float>(loss);
}

}  // namespace mlsys::nn
