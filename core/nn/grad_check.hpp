#pragma once
// Finite-difference gradient check used by tests: compares analytic gradients with central
// differences (L(x + eps) - L(x - eps)) / (2 eps) on a sample of elements.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace mlsys::nn {

struct GradCheckResult {
  double max_abs_error = 0;
  double max_rel_error = 0;  // |a - n| / max(1e-3, |a| + |n|)
  int64_t checked = 0;
  std::string worst;  // "input 0 element 5: analytic 0.1 numeric 0.12"
  bool ok(double rel_tol) const { return max_rel_error <= rel_tol; }
};

// `loss` recomputes the scalar loss from the current values (in f64 when possible). `pairs` are
// (value, analytic gradient) tensors of the same shape, on any device; values are perturbed in
// place and restored. At most `max_elements` elements of each value are checked, chosen with `seed`.
GradCheckResult check_gradients(const std::function<double()>& loss, const std::vector<std::pair<Tensor, Tensor>>& pairs,
                                double eps = 1e-3, int64_t max_elements = 48, uint64_t seed = 1);

}  // namespace mlsys::nn
