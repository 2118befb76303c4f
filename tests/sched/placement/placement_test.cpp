// Golden placements on hand-built clusters, and validation of every placer's output.
#include <doctest/doctest.h>

#include <set>

#include "core/util/random.hpp"
#include "sched/api/cluster_state.hpp"
#include "sched/api/placer.hpp"
#include "sched/placement/fragmentation.hpp"

using namespace mlsys::sched;

namespace {

ClusterState make_cluster(int nodes, int gpus, int per_rack = 2) {
  std::vector<NodeSpec> ns(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    ns[i].name = "n" + std::to_string(i);
    ns[i].gpus = gpus;
    ns[i].rack = i / per_rack;
  }
  return ClusterState(ns, {"v100"});
}

JobInfo job(int id, int gpus, int milli = 1000) {
  JobInfo j;
  j.id = id;
  j.num_gpus = gpus;
  j.gpu_milli = milli;
  return j;
}

// Occupies `gpus` whole GPUs on node n.
void occupy(ClusterState& c, int n, int gpus) {
  JobInfo j = job(999, gpus);
  Allocation a;
  c.pick_gpus(n, j, gpus, a);
  REQUIRE(c.check(j, a).empty());
  c.allocate(j, a);
}

Allocation place(const std::string& placer, const JobInfo& j, const ClusterState& c, uint64_t seed = 1) {
  PlacerParams p;
  p.seed = seed;
  p.workload = {DemandClass{1, 1000, 1}, DemandClass{1, 500, 1}};
  Allocation a;
  bool ok = placer_registry().create(placer, p)->place(j, c, a);
  if (!ok) a.clear();
  return a;
}

std::vector<int> nodes_of(const Allocation& a) {
  std::vector<int> out;
  for (const auto& s : a) out.push_back(s.node);
  return out;
}

}  // namespace

TEST_CASE("placement: consolidate is Helios' best fit") {
  auto c = make_cluster(3, 8);
  occupy(c, 0, 5);  // free 3
  occupy(c, 1, 2);  // free 6
  CHECK(nodes_of(place("consolidate", job(1, 3), c)) == std::vector<int>{0, 0, 0});  // fewest free that fits
  CHECK(nodes_of(place("consolidate", job(1, 4), c)) == std::vector<int>{1, 1, 1, 1});
  CHECK(nodes_of(place("consolidate", job(1, 8), c)) == std::vector<int>(8, 2));
  CHECK(place("consolidate", job(1, 16), c).empty());  // needs two whole free nodes
  auto d = make_cluster(3, 8);
  occupy(d, 1, 3);
  auto a = place("consolidate", job(1, 13), d);  // node 0 whole + 5 on the most-free remaining node
  CHECK(a.size() == 13);
  CHECK(nodes_of(a) == std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2});
}

TEST_CASE("placement: first fit takes the lowest node and spreads large jobs") {
  auto c = make_cluster(3, 8);
  occupy(c, 0, 5);
  occupy(c, 1, 2);
  CHECK(nodes_of(place("first_fit", job(1, 2), c)) == std::vector<int>{0, 0});
  CHECK(nodes_of(place("first_fit", job(1, 4), c)) == std::vector<int>{1, 1, 1, 1});
  auto a = place("first_fit", job(1, 12), c);  // 3 + 6 + 3, spread in node order
  CHECK(nodes_of(a) == std::vector<int>{0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2});
}

TEST_CASE("placement: random is seeded and always valid") {
  auto c = make_cluster(8, 8);
  occupy(c, 3, 4);
  auto a = place("random", job(1, 2), c, 7), b = place("random", job(1, 2), c, 7);
  CHECK(nodes_of(a) == nodes_of(b));
  std::set<int> seen;
  for (uint64_t s = 1; s <= 40; ++s) {
    auto x = place("random", job(1, 2), c, s);
    REQUIRE(c.check(job(1, 2), x).empty());
    seen.insert(x[0].node);
  }
  CHECK(seen.size() > 3);  // not always the same node
}

TEST_CASE("placement: topology keeps a large job inside one rack") {
  auto c = make_cluster(6, 8, 2);  // racks {0,1}, {2,3}, {4,5}
  occupy(c, 0, 1);
  occupy(c, 2, 8);  // rack 1 only has 8 free
  auto a = place("topology", job(1, 16), c);
  CHECK(nodes_of(a) == std::vector<int>{4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5});
  auto f = place("first_fit", job(1, 16), c);  // first fit crosses racks 0 and 1
  CHECK(f.front().node == 0);
  CHECK(f.back().node == 3);
}

TEST_CASE("placement: fgd packs fractional jobs onto partly used GPUs") {
  auto c = make_cluster(2, 2);
  // Node 0 GPU 0 half used.
  JobInfo half = job(5, 1, 500);
  Allocation h{GpuSlice{0, 0, 500}};
  REQUIRE(c.check(half, h).empty());
  c.allocate(half, h);
  auto a = place("fgd", job(1, 1, 500), c);
  REQUIRE(a.size() == 1);
  CHECK(a[0].node == 0);
  CHECK(a[0].gpu == 0);  // fills the half-used GPU instead of breaking a whole one
  // A whole-GPU job cannot use the half-free GPU: fragmentation counts it.
  int free0[2] = {500, 1000};
  CHECK(task_fragmentation(free0, 2, DemandClass{1, 1000, 1}) == doctest::Approx(500));
  CHECK(task_fragmentation(free0, 2, DemandClass{2, 1000, 1}) == doctest::Approx(1500));
  CHECK(task_fragmentation(free0, 2, DemandClass{1, 500, 1}) == doctest::Approx(0));
}

TEST_CASE("placement: fgd's fragmentation counts a node short of CPU, memory or GPU model as stranding its GPUs") {
  int free[2] = {500, 1000};
  NodeFree n;
  n.free = free;
  n.gpus = 2;
  n.gpu_type = 0;
  n.cpu = 4000;
  n.memory = 8192;
  DemandClass small{1, 500, 1};
  small.cpu_milli = 2000;
  CHECK(task_fragmentation(n, small) == doctest::Approx(0));       // fits, every GPU usable
  small.cpu_milli = 6000;
  CHECK(task_fragmentation(n, small) == doctest::Approx(1500));    // lacks CPU: all free share
  small.cpu_milli = 0;
  small.memory_mib = 9000;
  CHECK(task_fragmentation(n, small) == doctest::Approx(1500));    // lacks memory
  small.memory_mib = 0;
  small.gpu_type = 1;
  CHECK(task_fragmentation(n, small) == doctest::Approx(1500));    // wrong GPU model
  DemandClass cpu_only{0, 1000, 1};
  cpu_only.cpu_milli = 4000;
  CHECK(task_fragmentation(n, cpu_only) == doctest::Approx(0));    // fits: strands nothing
  cpu_only.cpu_milli = 4001;
  CHECK(task_fragmentation(n, cpu_only) == doctest::Approx(1500));
  // Unconstrained nodes (cpu/memory -1) behave as before.
  CHECK(task_fragmentation(free, 2, DemandClass{1, 1000, 1}) == doctest::Approx(500));
}

TEST_CASE("placement: fgd puts a CPU-only task where it strands no GPU, best fit does not look") {
  std::vector<NodeSpec> ns(2);
  ns[0] = NodeSpec{"gpu", 0, 0, 1, 0, 4000, 0};
  ns[1] = NodeSpec{"cpu", 0, 0, 0, 0, 4000, 0};
  ClusterState c(ns, {"v100"});
  JobInfo cpu_only = job(1, 0);
  cpu_only.cpu_milli = 4000;
  PlacerParams p;
  DemandClass gpu_task{1, 1000, 1};
  gpu_task.cpu_milli = 2000;
  DemandClass cpu_task{0, 1000, 1};
  cpu_task.cpu_milli = 4000;
  p.workload = {gpu_task, cpu_task};
  Allocation a;
  REQUIRE(placer_registry().create("fgd", p)->place(cpu_only, c, a));
  CHECK(a[0].node == 1);
  CHECK(nodes_of(place("consolidate", cpu_only, c)) == std::vector<int>{0});  // tie on free CPU: lowest index
}

TEST_CASE("placement: tetris aligns the demand vector with free capacity") {
  std::vector<NodeSpec> ns(2);
  ns[0] = NodeSpec{"cpu-busy", 0, 0, 8, 0, 64000, 0};
  ns[1] = NodeSpec{"gpu-busy", 0, 0, 8, 0, 64000, 0};
  ClusterState c(ns, {"v100"});
  JobInfo cpu_only = job(9, 0);
  cpu_only.cpu_milli = 56000;
  c.allocate(cpu_only, {GpuSlice{0, -1, 0}});
  occupy(c, 1, 7);
  JobInfo a = job(1, 1);
  a.cpu_milli = 1000;  // GPU-dominant: node 0 (8 free GPUs) aligns best
  CHECK(place("tetris", a, c)[0].node == 0);
  JobInfo b = job(2, 1);
  b.cpu_milli = 32000;  // only node 1 has the CPUs
  CHECK(place("tetris", b, c)[0].node == 1);
  CHECK(place("consolidate", b, c)[0].node == 1);
  CHECK(c.free_cpu(0) == 8000);
}

TEST_CASE("cluster state: invalid allocations are rejected with the reason") {
  auto c = make_cluster(1, 4);
  JobInfo j = job(1, 2);
  CHECK(c.check(j, {GpuSlice{0, 1, 1000}, GpuSlice{0, 1, 1000}}).find("given twice") != std::string::npos);
  CHECK(c.check(j, {GpuSlice{0, 1, 1000}}).find("needs 2") != std::string::npos);
  CHECK(c.check(j, {GpuSlice{0, 1, 1000}, GpuSlice{3, 0, 1000}}).find("does not exist") != std::string::npos);
  occupy(c, 0, 3);
  CHECK(c.check(j, {GpuSlice{0, 0, 1000}, GpuSlice{0, 3, 1000}}).find("capacity exceeded") != std::string::npos);
  CHECK(c.free_gpus(0) == 1);
  CHECK(c.count_with_free(1) == 1);
  CHECK(c.first_with_free(1) == 0);
}

TEST_CASE("placement: every registered placer returns valid allocations on random states") {
  mlsys::Rng rng(3);
  for (const auto& name : placer_registry().names()) {
    CAPTURE(name);
    for (int trial = 0; trial < 30; ++trial) {
      auto c = make_cluster(6, 8, 2);
      for (int n = 0; n < 6; ++n) occupy(c, n, static_cast<int>(rng.below(9)));
      JobInfo j = job(1, 1 + static_cast<int>(rng.below(20)));
      if (trial % 3 == 0) j = job(1, 1, 250 * (1 + trial % 4));
      auto a = place(name, j, c, static_cast<uint64_t>(trial));
      if (!a.empty()) {
        CHECK(c.check(j, a) == "");
      }
      // A placer never fails when a single node trivially fits.
      if (j.num_gpus <= 8 && j.gpu_milli == 1000 && c.count_with_free(8) > 0) CHECK(!a.empty());
    }
  }
}
