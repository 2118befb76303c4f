#include <doctest/doctest.h>

#include "gnn/halo/halo_plan.hpp"
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

TEST_CASE("partition report: one row per partition, halo rows summed") {
  Graph g = generate_sbm(gnntest::small_sbm(400), 4);
  const int parts = 3;
  auto owner = gnntest::parts_of(g, parts, "random");
  const std::vector<HaloPlan> plans = build_halo_plans(g, owner, parts);
  Table t = partition_table(plans);
  CHECK(t.rows() == 3);
  Json s = partition_summary(plans, 128);
  CHECK(s["halo_rows_per_layer"].as_int() == plans[0].num_halo() + plans[1].num_halo() + plans[2].num_halo());
}
