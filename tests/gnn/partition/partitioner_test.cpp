#include <doctest/doctest.h>

#include "gnn/dist/halo_plan.hpp"
#include "gnn/partition/report.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using mlsys::test::TempDir;

static int64_t halo_rows(const Graph& g, const std::vector<int32_t>& owner, int parts) {
  int64_t h = 0;
  for (int p = 0; p < parts; ++p) h += build_halo_plan(g, owner, parts, p).num_halo();
  return h;
}

TEST_CASE("every registered partitioner covers all parts, METIS communicates less than random") {
  Graph g = generate_sbm(gnntest::small_sbm(1500), 2);
  std::map<std::string, int64_t> volume;
  for (const auto* e : partitioner_registry().entries()) {
    CAPTURE(e->name);
    auto a = gnntest::parts_of(g, 4, e->name);
    std::vector<int64_t> cnt(4, 0);
    for (int32_t p : a) ++cnt.at(static_cast<size_t>(p));
    for (int64_t c : cnt) CHECK(c > 0);
    volume[e->name] = halo_rows(g, a, 4);
  }
  CHECK(volume["metis"] < volume["random"]);
  PartitionParams pp;
  pp.parts = 4;
  pp.objective = "cut";
  CHECK(halo_rows(g, partition_cached(g, "metis", pp, ""), 4) < volume["random"]);
  CHECK_THROWS_AS(partitioner_registry().create("metsi"), ConfigError);
}

TEST_CASE("partitions are cached on disk keyed by graph and parameters") {
  TempDir t;
  Graph g = generate_sbm(gnntest::small_sbm(500), 2);
  PartitionParams pp;
  pp.parts = 3;
  bool cached = true;
  auto a = partition_cached(g, "metis", pp, t.path().string(), &cached);
  CHECK_FALSE(cached);
  auto b = partition_cached(g, "metis", pp, t.path().string(), &cached);
  CHECK(cached);
  CHECK(a == b);
  pp.parts = 2;
  partition_cached(g, "metis", pp, t.path().string(), &cached);
  CHECK_FALSE(cached);  // other parameters: other key
  Graph h = generate_sbm(gnntest::small_sbm(500), 3);
  partition_cached(h, "metis", pp, t.path().string(), &cached);
  CHECK_FALSE(cached);  // other graph: other key
}

TEST_CASE("halo plan: each peer gets exactly the boundary rows it needs") {
  Graph g = generate_sbm(gnntest::small_sbm(400), 4);
  const int parts = 3;
  auto owner = gnntest::parts_of(g, parts, "random");
  std::vector<HaloPlan> plans;
  for (int p = 0; p < parts; ++p) plans.push_back(build_halo_plan(g, owner, parts, p));
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
  Table t = partition_table(plans);
  CHECK(t.rows() == 3);
  Json s = partition_summary(plans, 128);
  CHECK(s["halo_rows_per_layer"].as_int() == plans[0].num_halo() + plans[1].num_halo() + plans[2].num_halo());
}
