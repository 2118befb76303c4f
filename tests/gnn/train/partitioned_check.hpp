#pragma once
// The partitioned-equals-single-worker check that every architecture passes (trainer_test runs it
// for each registered one; docs_examples runs it for the example architecture).
#include <doctest/doctest.h>

#include <cmath>

#include "tests/gnn/gnn_test_util.hpp"

namespace mlsys::gnn::gnntest {

// Trains `s` (32 bits, no pipelining) on one worker and on `parts`: every epoch's loss agrees to
// 1e-4 relative and the curve falls. Returns the partitioned run.
inline TrainResult check_partitioned_matches_one(const Graph& g, TrainSetup s, int parts) {
  s.gnn.parts = 1;
  TrainResult one = train(g, parts_of(g, 1), s);
  s.gnn.parts = parts;
  TrainResult many = train(g, parts_of(g, parts), s);
  auto a = losses(one), b = losses(many);
  REQUIRE(a.size() == static_cast<size_t>(s.gnn.epochs));
  REQUIRE(b.size() == a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(a[i] - b[i]) <= 1e-4 * std::abs(a[i]));
  }
  CHECK(a.back() < a.front());  // it learns
  return many;
}

}  // namespace mlsys::gnn::gnntest
