// Every collective case on the inproc backend with 2, 3 and 4 ranks (and 1 as the degenerate case).
#include <doctest/doctest.h>

#include "core/comm/factory.hpp"
#include "tests/core/comm/collective_cases.hpp"

using namespace mlsys;

TEST_CASE("comm/inproc: every collective case on 1, 2, 3 and 4 ranks") {
  CommOptions opts;
  opts.timeout_s = 30;
  for (const auto& tc : test::collective_cases()) {
    for (int n : {1, 2, 3, 4}) {
      CAPTURE(tc.name);
      CAPTURE(n);
      CHECK_NOTHROW(comm::run_inproc(n, opts, tc.body));
    }
  }
}
