#pragma once
// Step 3: the uniformity score of Wang & Isola, V = log mean_{i<j} exp(-t ||psi_i - psi_j||^2)
// over the rows of Z after L2 normalization (psi). Lower is more uniform (better). Pairs are the
// distinct unordered pairs i < j; computed in double with a log-sum-exp.
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

// center: subtract the column means of Z first (see docs/coopt.md: ReLU embeddings of small priors
// sit in the positive orthant, where the raw score mostly measures that offset).
double uniformity_score(DeviceContext& ctx, const Tensor& z, double t = 2.0, bool center = false);

}  // namespace mlsys::dataopt
