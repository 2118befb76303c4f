#include <doctest/doctest.h>

#include <cmath>

#include "gnn/model/architecture.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

TEST_CASE("P workers at 32 bits without pipelining match one worker's loss curve to 1e-4") {
  Graph g = generate_sbm(small_sbm(800), 3);
  for (const std::string& arch : architecture_registry().names()) {  // every registered architecture
    CAPTURE(arch);
    TrainSetup s = quick_setup(1, 15);
    s.gnn.model.arch = arch;
    s.gnn.model.hidden = 16;
    s.gnn.model.heads = 2;
    s.gnn.model.dropout = 0.5;
    TrainResult one = train(g, parts_of(g, 1), s);
    s.gnn.parts = 4;
    TrainResult four = train(g, parts_of(g, 4), s);
    auto a = losses(one), b = losses(four);
    REQUIRE(a.size() == 15);
    REQUIRE(b.size() == 15);
    for (size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      CHECK(std::abs(a[i] - b[i]) <= 1e-4 * std::abs(a[i]));
    }
    CHECK(a.back() < a.front());  // it learns
    CHECK(four.epochs.back().mean.wire_bytes > 0);
  }
}

TEST_CASE("optim.schedule: cosine trains epoch 0 at the base rate and smaller steps after") {
  Graph g = generate_sbm(small_sbm(800), 3);
  TrainSetup s = quick_setup(1, 10);
  s.gnn.model.dropout = 0;
  TrainResult constant = train(g, parts_of(g, 1), s);
  s.gnn.lr_schedule = "cosine";
  TrainResult cosine = train(g, parts_of(g, 1), s);
  auto a = losses(constant), b = losses(cosine);
  REQUIRE(a.size() == 10);
  REQUIRE(b.size() == 10);
  // Epoch 0's step uses factor 1, so epoch 1 starts from the same weights; from epoch 1's step on
  // the rate is lower and the curves part.
  CHECK(a[0] == b[0]);
  CHECK(a[1] == b[1]);
  CHECK(a[2] != b[2]);
  CHECK(b.back() < b.front());
}
