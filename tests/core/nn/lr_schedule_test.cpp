// Learning-rate schedules: the registered factors and the error for an unknown name.
#include <doctest/doctest.h>

#include <cmath>

#include "core/nn/lr_schedule.hpp"

using namespace mlsys;
using namespace mlsys::nn;

TEST_CASE("lr schedules: constant keeps the base rate, cosine falls from it to near 0 monotonically") {
  auto constant = lr_schedule_registry().create("constant");
  for (int64_t s : {0, 7, 99}) CHECK(constant->factor(s, 100) == 1.0);
  auto cosine = lr_schedule_registry().create("cosine");
  CHECK(cosine->factor(0, 100) == doctest::Approx(1.0));
  CHECK(cosine->factor(50, 100) == doctest::Approx(0.5));
  CHECK(cosine->factor(99, 100) == doctest::Approx(0.5 * (1 + std::cos(M_PI * 0.99))));
  CHECK(cosine->factor(99, 100) < 0.001);
  for (int64_t s = 1; s < 100; ++s) CHECK(cosine->factor(s, 100) < cosine->factor(s - 1, 100));
}

TEST_CASE("lr schedules: an unknown name lists the valid ones and the nearest") {
  try {
    lr_schedule_registry().create("cosin");
    FAIL("unknown schedule accepted");
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    CHECK(m.find("did you mean 'cosine'") != std::string::npos);
    CHECK(m.find("constant") != std::string::npos);
  }
}
