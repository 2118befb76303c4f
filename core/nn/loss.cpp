#include "core/nn/loss.hpp"

#include "core/kernels/kernels.hpp"

#include <string>
#include <vector>

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

NtXentLoss::NtXentLoss(DeviceContext& ctx, float temperature) : ctx_(ctx), temperature_(temperature) {
  if (!(temperature > 0)) throw Error("NtXentLoss: temperature must be > 0, got " + std::to_string(temperature));
}

float NtXentLoss::forward(const Tensor& z) {
  const int64_t n = z.rows(), d = z.row_numel();
  if (z.rank() != 2 || n < 2 || n % 2 != 0)
    throw Error("NtXentLoss: expected [2B, d] with B >= 1 (two views per example), got " + z.str());
  if (n != rows_) {  // the constant tensors of this batch size, built once
    std::vector<float> mask(static_cast<size_t>(n * n), 0.f);
    std::vector<int32_t> partner(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      // exp(-1e9) is exactly 0 in f32: a row never counts itself as a negative.
      mask[static_cast<size_t>(i * n + i)] = -1e9f;
      partner[static_cast<size_t>(i)] = static_cast<int32_t>((i + n / 2) % n);
    }
    diagonal_mask_ = Tensor::from_vector(mask, Shape{n, n}).to(ctx_);
    partner_ = Tensor::from_vector(partner).to(ctx_);
    rows_ = n;
  }
  const Tensor u = Tensor::empty({n, d}, DType::f32, ctx_), norm = Tensor::empty({n}, DType::f32, ctx_);
  kernels::l2_normalize_rows(ctx_, z, u, norm);
  const float inv_t = 1.f / temperature_;
  const Tensor s = Tensor::empty({n, n}, DType::f32, ctx_);
  kernels::gemm(ctx_, u, false, u, true, s, inv_t);
  kernels::add(ctx_, s, diagonal_mask_, s);
  const Tensor gs = Tensor::empty({n, n}, DType::f32, ctx_);
  const float loss = kernels::cross_entropy(ctx_, s, partner_, Tensor(), gs);
  // s = u u^T / t, so d loss / d u = (G + G^T) u / t.
  const Tensor gu = Tensor::empty({n, d}, DType::f32, ctx_);
  kernels::gemm(ctx_, gs, false, u, false, gu, inv_t);
  kernels::gemm(ctx_, gs, true, u, false, gu, inv_t, 1.f);
  grad_ = Tensor::empty({n, d}, DType::f32, ctx_);
  kernels::l2_normalize_rows_backward(ctx_, u, norm, gu, grad_);
  return loss;
}

}  // namespace mlsys::nn
