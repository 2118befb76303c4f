#pragma once
// Losses: forward returns the scalar loss and keeps the gradient; backward returns it.
#include "core/nn/module.hpp"

namespace mlsys::nn {

// Mean cross-entropy of logits [N, C] against labels (i32/i64 [N]) over rows with mask != 0
// (mask u8 [N], may be undefined) and label >= 0 (negative labels are ignored).
class CrossEntropyLoss {
 public:
  explicit CrossEntropyLoss(DeviceContext& ctx) : ctx_(ctx) {}
  float forward(const Tensor& logits, const Tensor& labels, const Tensor& mask = Tensor());
  Tensor backward() const { return grad_; }  // d loss / d logits

 private:
  DeviceContext& ctx_;
  Tensor grad_;
};

// Mean negative log-likelihood on log-probabilities (e.g. after a LogSoftmax layer).
class NllLoss {
 public:
  explicit NllLoss(DeviceContext& ctx) : ctx_(ctx) {}
  float forward(const Tensor& logp, const Tensor& labels, const Tensor& mask = Tensor());
  Tensor backward() const { return grad_; }

 private:
  DeviceContext& ctx_;
  Tensor grad_;
};

// Row-wise log-softmax as a layer.
class LogSoftmax : public Module {
 public:
  explicit LogSoftmax(DeviceContext& ctx) : Module(ctx) {}
  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "LogSoftmax"; }

 private:
  Tensor output_;
};

// mean_i w_i (1 - cos(a_i, b_i)); gradients for both inputs. row_weight (f32 [N]) gives w_i, all 1
// when undefined (e.g. how much each row's target is trusted).
class CosineSimilarityLoss {
 public:
  explicit CosineSimilarityLoss(DeviceContext& ctx, float eps = 1e-8f) : ctx_(ctx), eps_(eps) {}
  float forward(const Tensor& a, const Tensor& b, const Tensor& row_weight = Tensor());
  Tensor grad_a() const { return grad_a_; }
  Tensor grad_b() const { return grad_b_; }

 private:
  DeviceContext& ctx_;
  float eps_;
  Tensor grad_a_, grad_b_;
};

// NT-Xent (normalized temperature-scaled cross-entropy; SimCLR's contrastive loss) over z [2B, d]:
// rows i and i + B are two views of one example (positives), every other row of the batch a
// negative. With u = z / ||z|| row-wise and s_ij = u_i . u_j / temperature,
//   loss = mean_i -log( exp(s_{i,p(i)}) / sum_{j != i} exp(s_ij) ),  p(i) = (i + B) mod 2B.
// Built from core/kernels (row normalization, GEMM, cross-entropy), so it runs on any device.
class NtXentLoss {
 public:
  NtXentLoss(DeviceContext& ctx, float temperature);
  float forward(const Tensor& z);
  Tensor backward() const { return grad_; }  // d loss / d z

 private:
  DeviceContext& ctx_;
  float temperature_;
  int64_t rows_ = 0;
  Tensor diagonal_mask_, partner_;  // for rows_ rows: -1e9 on the diagonal, p(i)
  Tensor grad_;
};

// Mean squared error over all elements, mean((pred - target)^2) (e.g. reconstructing an image);
// the gradient is d loss / d pred. Built from the element-wise kernels, so it runs on any device.
class MseLoss {
 public:
  explicit MseLoss(DeviceContext& ctx) : ctx_(ctx) {}
  float forward(const Tensor& pred, const Tensor& target);
  Tensor backward() const { return grad_; }

 private:
  DeviceContext& ctx_;
  Tensor grad_;
};

}  // namespace mlsys::nn
