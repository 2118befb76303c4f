#include "core/nn/grad_check.hpp"

#include <cmath>
#include "core/util/random.hpp"

namespace mlsys::nn {

static float get_elem(const Tensor& t, int64_t i) {
  float v;
  copy_bytes(&v, Device::cpu(), t.data<float>() + i, t.device(), sizeof v);
  return v;
}
static void set_elem(const Tensor& t, int64_t i, float v) {
  copy_bytes(t.data<float>() + i, t.device(), &v, Device::cpu(), sizeof v);
}

GradCheckResult check_gradients(const std::function<double()>& loss, const std::vector<std::pair<Tensor, Tensor>>& pairs,
                                double eps, int64_t max_elements, uint64_t seed) {
  GradCheckResult res;
  Rng rng(seed);
  for (size_t k = 0; k < pairs.size(); ++k) {
    const Tensor& value = pairs[k].first;
    const Tensor& grad = pairs[k].second;
    if (value.numel() != grad.numel()) throw Error("check_gradients: value and gradient sizes differ for input " + std::to_string(k));
    const int64_t n = value.numel();
    std::vector<int64_t> idx;
    if (n <= max_elements) {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < max_elements; ++i) idx.push_back(static_cast<int64_t>(rng.below(static_cast<uint64_t>(n))));
    }
    for (int64_t i : idx) {
      const float orig = get_elem(value, i);
      set_elem(value, i, static_cast<float>(orig + eps));
      const double lp = loss();
      set_elem(value, i, static_cast<float>(orig - eps));
      const double lm = loss();
      set_elem(value, i, orig);
      const double numeric = (lp - lm) / (2 * eps);
      const double analytic = get_elem(grad, i);
      const double abs_err = std::fabs(numeric - analytic);
      const double rel = abs_err / std::max(1e-3, std::fabs(numeric) + std::fabs(analytic));
      ++res.checked;
      res.max_abs_error = std::max(res.max_abs_error, abs_err);
      if (rel > res.max_rel_error) {
        res.max_rel_error = rel;
        res.worst = "input " + std::to_string(k) + " element " + std::to_string(i) + ": analytic " +
                    std::to_string(analytic) + " numeric " + std::to_string(numeric);
      }
    }
  }
  return res;
}

}  // namespace mlsys::nn
