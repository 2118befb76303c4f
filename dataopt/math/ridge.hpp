#pragma once
// Step 4: the alignment map T (n x n) minimizing ||A T - B||^2 + lambda ||T||^2, with A the
// participant's projected embeddings of S and B the reference's. lambda = ridge * mean(diag(A^T A))
// so one setting works whatever the embedding scale. Solved by Cholesky in double precision.
// Tensors are 2-D f32 on any device; products run on ctx, the small solves on the host in double.
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

Tensor ridge_fit(DeviceContext& ctx, const Tensor& a, const Tensor& b, double ridge);
Tensor identity_matrix(int64_t n);

// The alignment map with an optional intercept: y = a T + c. With `intercept`, T is the ridge fit
// of the S-centered A onto the S-centered B and c = mean(B) - mean(A) T (embeddings of ReLU
// networks have large means that a map through the origin has to spend its capacity on). The
// fit also reports its leave-one-out R^2 on S, 1 - sum_i |b_i - b^(-i)_i|^2 / sum_i |b_i - mean(B)|^2
// (b^(-i): the prediction of a map fitted without row i, from the closed form e_i / (1 - h_ii)):
// how much of the reference's variation the participant predicts on images it was not fitted on.
struct Alignment {
  Tensor t;                   // n x n (host; moved to ctx by apply)
  std::vector<float> offset;  // n (zeros without intercept)
  double loo_r2 = 1;
  Tensor apply(DeviceContext& ctx, const Tensor& a) const;
};
Alignment fit_alignment(DeviceContext& ctx, const Tensor& a, const Tensor& b, double ridge, bool intercept);
Alignment identity_alignment(int64_t n);

}  // namespace mlsys::dataopt
