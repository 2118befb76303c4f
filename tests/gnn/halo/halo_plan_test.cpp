#include "gnn/halo/halo_plan.hpp"

#include <doctest/doctest.h>

#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

TEST_CASE("halo plan: each peer gets exactly the boundary rows it needs") {
  Graph g = generate_sbm(gnntest::small_sbm(400), 4);
  const int parts = 3;
  auto owner = gnntest::parts_of(g, parts, "random");
  const std::vector<HaloPlan> plans = build_halo_plans(g, owner, parts);
  for (int p = 0; p < parts; ++p)
    for (int q = 0; q < parts; ++q) {
      // What q sends p (in q's local rows) is p's halo block from q, in order.
      const auto& rows = plans[q].send_rows[p];
      REQUIRE(static_cast<int64_t>(rows.size()) == plans[p].halo_from(q));
      for (size_t i = 0; i < rows.size(); ++i) CHECK(plans[q].owned[rows[i]] == plans[p].halo[plans[p].halo_offset[q] + i]);
    }
  // The local adjacency reproduces the global one.
  const HaloPlan& p0 = plans[0];
  for (int64_t i = 0; i < p0.num_owned(); ++i) {
    int32_t u = p0.owned[i];
    REQUIRE(p0.indptr[i + 1] - p0.indptr[i] == g.degree(u));
    for (int64_t e = p0.indptr[i]; e < p0.indptr[i + 1]; ++e) {
      int32_t c = p0.indices[e];
      int32_t v = c < p0.num_owned() ? p0.owned[c] : p0.halo[c - p0.num_owned()];
      CHECK(v == g.indices[g.indptr[u] + (e - p0.indptr[i])]);
    }
  }
}
