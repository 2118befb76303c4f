#include <doctest/doctest.h>

#include "core/util/random.hpp"
#include "dataopt/eval/probe.hpp"
#include "dataopt/math/tensor_ops.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

TEST_CASE("linear probe separates separable classes and not noise") {
  DeviceContext ctx(Device::cpu());
  Rng rng(1);
  auto make = [&](int64_t n, bool informative, std::vector<int32_t>& y) {
    std::vector<float> f(static_cast<size_t>(n * 5));
    y.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      y[static_cast<size_t>(i)] = static_cast<int32_t>(i % 3);
      for (int64_t j = 0; j < 5; ++j) f[static_cast<size_t>(i * 5 + j)] = static_cast<float>(rng.normal() * 0.3);
      if (informative) f[static_cast<size_t>(i * 5 + y[static_cast<size_t>(i)])] += 2;
    }
    return host_matrix(std::move(f), n, 5);
  };
  std::vector<int32_t> ytr, yte;
  Tensor tr = make(60, true, ytr), te = make(300, true, yte);
  std::vector<float> mean, sd;
  column_stats(tr, mean, sd);
  CHECK(linear_probe(ctx, tr, ytr, te, yte, 3, mean, sd).accuracy > 0.95);
  Tensor trn = make(60, false, ytr), ten = make(300, false, yte);
  CHECK(linear_probe(ctx, trn, ytr, ten, yte, 3, mean, sd).accuracy < 0.5);
}

TEST_CASE("labeled subset takes per_class rows of each class") {
  std::vector<int32_t> labels;
  for (int i = 0; i < 100; ++i) labels.push_back(i % 4);
  std::vector<int64_t> rows = labeled_subset(labels, 4, 3, 7);
  CHECK(rows.size() == 12);
  std::vector<int> count(4, 0);
  for (int64_t r : rows) ++count[static_cast<size_t>(labels[static_cast<size_t>(r)])];
  CHECK(count == std::vector<int>{3, 3, 3, 3});
  CHECK(labeled_subset(labels, 4, 3, 8) != rows);
}
