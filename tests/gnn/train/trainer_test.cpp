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
