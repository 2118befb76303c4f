#pragma once
// A minimal feed-forward network library private to dataopt: the priors and students need only
// Linear, ReLU, 3x3 Conv2d (im2col + OpenBLAS) and 2x2 max pooling, with backward passes, on
// row-major (batch x features) matrices. Images are laid out channel-major (C, H, W) per row.
#include <memory>
#include <string>
#include <vector>

#include "dataopt/math/matrix.hpp"
#include "dataopt/math/rng.hpp"

namespace mlsys::dataopt {

struct Param {
  std::vector<float> w, g;  // value and gradient
};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual Matrix forward(const Matrix& x, bool train) = 0;
  // Gradient w.r.t. the input of the last forward(train = true); accumulates parameter gradients.
  virtual Matrix backward(const Matrix& grad_out) = 0;
  // The first layer's input gradient is never used; layers may skip computing it.
  void set_input_grad(bool needed) { need_input_grad_ = needed; }

 protected:
  bool need_input_grad_ = true;

 public:
  virtual std::vector<Param*> params() { return {}; }
  virtual int64_t out_dim() const = 0;
};

class Linear final : public Layer {
 public:
  Linear(int64_t in, int64_t out, Rng& rng);
  Matrix forward(const Matrix& x, bool train) override;
  Matrix backward(const Matrix& g) override;
  std::vector<Param*> params() override { return {&w_, &b_}; }
  int64_t out_dim() const override { return out_; }

 private:
  int64_t in_, out_;
  Param w_, b_;  // w: in x out
  Matrix x_;
};

class Relu final : public Layer {
 public:
  explicit Relu(int64_t dim) : dim_(dim) {}
  Matrix forward(const Matrix& x, bool train) override;
  Matrix backward(const Matrix& g) override;
  int64_t out_dim() const override { return dim_; }

 private:
  int64_t dim_;
  Matrix y_;
};

struct Geometry {
  int c, h, w;
  int64_t size() const { return static_cast<int64_t>(c) * h * w; }
};

// 3x3 convolution, padding 1, given stride.
class Conv3x3 final : public Layer {
 public:
  Conv3x3(Geometry in, int out_channels, int stride, Rng& rng);
  Matrix forward(const Matrix& x, bool train) override;
  Matrix backward(const Matrix& g) override;
  std::vector<Param*> params() override { return {&w_, &b_}; }
  int64_t out_dim() const override { return out_geo_.size(); }
  Geometry out_geometry() const { return out_geo_; }

 private:
  void im2col(const Matrix& x, Matrix& col) const;
  Geometry in_, out_geo_;
  int stride_;
  Param w_, b_;  // w: (c*9) x out_channels
  Matrix col_;
};

class MaxPool2 final : public Layer {
 public:
  explicit MaxPool2(Geometry in);
  Matrix forward(const Matrix& x, bool train) override;
  Matrix backward(const Matrix& g) override;
  int64_t out_dim() const override { return out_geo_.size(); }
  Geometry out_geometry() const { return out_geo_; }

 private:
  Geometry in_, out_geo_;
  std::vector<int32_t> argmax_;
  int64_t batch_ = 0;
};

}  // namespace mlsys::dataopt
