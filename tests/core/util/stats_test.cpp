#include <doctest/doctest.h>

#include "core/util/stats.hpp"

using namespace mlsys;

TEST_CASE("mean_sd: mean and sample standard deviation") {
  const MeanSd s = mean_sd({2, 4, 4, 4, 5, 5, 7, 9});
  CHECK(s.mean == doctest::Approx(5.0));
  CHECK(s.sd == doctest::Approx(std::sqrt(32.0 / 7.0)));  // n - 1 = 7
  CHECK(mean_sd({3}).mean == 3);
  CHECK(mean_sd({3}).sd == 0);
  CHECK(mean_sd({}).mean == 0);
  CHECK(quantile_sorted({1, 2, 3, 4}, 0.5) == doctest::Approx(2.5));
}
