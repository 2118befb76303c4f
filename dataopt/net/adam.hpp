#pragma once
#include <vector>

#include "dataopt/net/layers.hpp"

namespace mlsys::dataopt {

// Adam with decoupled weight decay (AdamW when weight_decay > 0).
class Adam {
 public:
  explicit Adam(double lr, double weight_decay = 0, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8)
      : lr_(lr), wd_(weight_decay), b1_(beta1), b2_(beta2), eps_(eps) {}
  // Updates every parameter from its gradient and then zeroes the gradient (the next backward
  // pass accumulates into it), so a training loop needs no separate zero_grad pass.
  void step(const std::vector<Param*>& params);
  void set_lr(double lr) { lr_ = lr; }

 private:
  double lr_, wd_, b1_, b2_, eps_;
  long t_ = 0;
  std::vector<std::vector<float>> m_, v_;
};

}  // namespace mlsys::dataopt
