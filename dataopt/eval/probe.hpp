#pragma once
// Linear probe of frozen features: a ridge-regression classifier (one-hot targets, bias column) on
// features standardized with statistics of an unlabeled reference set (the pool). The ridge is
// lambda = d (a unit-variance prior on class scores) unless `ridge` > 0 gives it relative to
// mean(diag(X^T X)). Nothing is tuned on the test rows. Features are tensors [rows, d] on any
// device; products run on ctx, the solve on the host in double.
#include <cstdint>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

struct ProbeResult {
  double accuracy = 0;  // on the test rows, in [0, 1]
  double ridge = 0;     // relative ridge used
};

ProbeResult linear_probe(DeviceContext& ctx, const Tensor& train_features, const std::vector<int32_t>& train_labels,
                         const Tensor& test_features, const std::vector<int32_t>& test_labels, int classes,
                         const std::vector<float>& mean, const std::vector<float>& stdev, double ridge = 0);

// `per_class` labeled rows per class drawn with `seed` (all rows of a class when it has fewer).
std::vector<int64_t> labeled_subset(const std::vector<int32_t>& labels, int classes, int per_class, uint64_t seed);

}  // namespace mlsys::dataopt
