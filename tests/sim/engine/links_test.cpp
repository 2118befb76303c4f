// The links slowdown model (sim.slowdown_model: links) on hand-computed cases: jobs spread over
// racks share the rack uplinks' bandwidth, and are re-timed when one starts or ends.
//
// Every job here moves comm = 10 Gbps at its trace speed and needs two nodes, so its baseline is
// the 100 Gbps node link; the rack uplinks have 20 Gbps. Slowdown = 1 + comm x (1/bw - 1/bw0):
//   alone on the uplinks:   bw = 20        -> 1 + 10 x (1/20 - 1/100)  = 1.4
//   two jobs on them:       bw = 20/2 = 10 -> 1 + 10 x (1/10 - 1/100)  = 1.9
//   three jobs on them:     bw = 20/3      -> 1 + 10 x (3/20 - 1/100)  = 2.4
#include <doctest/doctest.h>

#include <map>

#include "sched/api/policy.hpp"
#include "sim/engine/engine.hpp"
#include "sim/engine/links.hpp"

using namespace mlsys;
using namespace mlsys::sim;

namespace {

// Starts every pending job at once on the allocation the test pinned for it.
std::map<sched::JobId, sched::Allocation>& pins() {
  static std::map<sched::JobId, sched::Allocation> p;
  return p;
}
class Pinned final : public sched::Policy {
 public:
  void on_submit(sched::JobId j, const sched::ClusterView&) override { q_.push_back(j); }
  void on_finish(sched::JobId, const sched::ClusterView&) override {}
  void schedule(sched::SchedulerContext& ctx) override {
    for (auto j : q_)
      if (ctx.status(j) == sched::JobStatus::Pending) ctx.start(j, pins().at(j));
  }
  std::vector<sched::JobId> q_;
};
const bool registered = sched::policy_registry().add("test_pinned", "test only", [](const sched::PolicyParams&) {
  return std::make_unique<Pinned>();
});

// `per_rack` nodes of 4 GPUs in each of two racks (node i in rack i / per_rack).
sched::ClusterState two_racks(int per_rack) {
  std::vector<sched::NodeSpec> ns(static_cast<size_t>(2 * per_rack));
  for (int i = 0; i < 2 * per_rack; ++i) {
    ns[i].name = "n" + std::to_string(i);
    ns[i].gpus = 4;
    ns[i].rack = i / per_rack;
  }
  return sched::ClusterState(ns, {"v100"});
}

// Job `id`: 8 GPUs, `duration` seconds, submitted at `submit`, on node a (4 GPUs) and node b (4).
EngineJob spread_job(int id, double submit, double duration, int a, int b) {
  EngineJob e;
  e.info.id = id;
  e.info.submit = submit;
  e.info.num_gpus = 8;
  e.info.estimate = duration;
  e.duration = duration;
  e.comm_gbps = 10;
  sched::Allocation al;
  for (int g = 0; g < 4; ++g) al.push_back({a, g, 1000});
  for (int g = 0; g < 4; ++g) al.push_back({b, g, 1000});
  pins()[id] = al;
  return e;
}

EngineOptions links_options() {
  EngineOptions o;
  o.policy = "test_pinned";
  o.sample_interval = 0;
  o.slowdown = true;
  o.slowdown_model = "links";
  o.links.intra_node_gbps = 300;
  o.links.intra_rack_gbps = 100;
  o.links.inter_rack_gbps = 20;
  return o;
}

}  // namespace

TEST_CASE("links golden: two jobs spread across the same rack uplink each run slower than alone") {
  // Racks {n0, n1} and {n2, n3}. A on n0+n2, B on n1+n3: both cross both rack uplinks.
  const auto o = links_options();
  auto alone = run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 2)}, {-1}, o);
  CHECK(alone.jobs[0].end == doctest::Approx(140));  // 100 s x 1.4
  CHECK(alone.jobs[0].slowdown == doctest::Approx(1.4));
  auto both = run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 2), spread_job(1, 0, 100, 1, 3)}, {-1}, o);
  CHECK(both.jobs[0].end == doctest::Approx(190));  // 100 s x 1.9: 50 s later than alone
  CHECK(both.jobs[1].end == doctest::Approx(190));
  CHECK(both.jobs[0].slowdown == doctest::Approx(1.9));
  // B arrives at 40 s: A ran 40 s at 1.4 (28.57 s of work), then both at 1.9 until A's other 71.43 s of
  // work are done at 40 + 135.71 = 175.71 s; B has done 71.43 s by then and runs its last 28.57 s alone
  // at 1.4: 175.71 + 40 = 215.71 s.
  auto later = run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 2), spread_job(1, 40, 100, 1, 3)}, {-1}, o);
  CHECK(later.jobs[0].end == doctest::Approx(40 + (100 - 40 / 1.4) * 1.9));
  CHECK(later.jobs[1].end == doctest::Approx(40 + (100 - 40 / 1.4) * 1.9 + 40));
  // The same two jobs inside one rack each (A on n0+n1, B on n2+n3) cross no uplink: each has its
  // own two node links at full speed, the baseline, so they run at trace speed.
  auto racked = run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 1), spread_job(1, 0, 100, 2, 3)}, {-1}, o);
  CHECK(racked.jobs[0].end == doctest::Approx(100));
  CHECK(racked.jobs[1].end == doctest::Approx(100));
  // With the constant model (the default) the link bandwidths play no part.
  auto constant = links_options();
  constant.slowdown_model = "constant";
  constant.slowdown_per_extra_node = 0;
  constant.slowdown_per_extra_rack = 0;
  auto c = run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 2), spread_job(1, 0, 100, 1, 3)}, {-1}, constant);
  CHECK(c.jobs[0].end == 100);
}

TEST_CASE("links golden: three jobs on one uplink, re-timed as each ends") {
  // Racks {n0, n1, n2} and {n3, n4, n5}; job i on n_i + n_(i+3): all three cross both uplinks.
  // A (60 s of work), B (120 s), C (240 s), all from 0.
  //   3 jobs, slowdown 2.4: A's 60 s end at 144; B and C have done 60 s each.
  //   2 jobs, slowdown 1.9: B's other 60 s take 114 s: ends at 258; C has done 120 s.
  //   1 job,  slowdown 1.4: C's other 120 s take 168 s: ends at 426.
  auto r = run_engine(two_racks(3), {spread_job(0, 0, 60, 0, 3), spread_job(1, 0, 120, 1, 4), spread_job(2, 0, 240, 2, 5)},
                      {-1}, links_options());
  CHECK(r.jobs[0].end == doctest::Approx(144));
  CHECK(r.jobs[1].end == doctest::Approx(258));
  CHECK(r.jobs[2].end == doctest::Approx(426));
  for (int j = 0; j < 3; ++j) CHECK(r.jobs[j].slowdown == doctest::Approx(2.4));  // the highest seen
}

TEST_CASE("links: a demand above the baseline bandwidth is bounded by it (slowdown at most bw0 / bw)") {
  // comm 500 Gbps cannot be moved at trace speed over the 100 Gbps node links: it counts as 100.
  // Alone on the 20 Gbps uplinks: 1 + 100 x (1/20 - 1/100) = 5 = 100 / 20.
  auto big = spread_job(0, 0, 100, 0, 2);
  big.comm_gbps = 500;
  auto r = run_engine(two_racks(2), {big}, {-1}, links_options());
  CHECK(r.jobs[0].slowdown == doctest::Approx(5));
  CHECK(r.jobs[0].end == doctest::Approx(500));
}

TEST_CASE("links: the node link is shared too, single-node jobs and jobs without traffic are never slowed") {
  auto o = links_options();
  o.links.intra_rack_gbps = 40;  // node links now the bottleneck
  o.links.inter_rack_gbps = 1000;
  // A on n0+n1 and B on n0+n2 (2 GPUs each on n0, hand-pinned): they share n0's 40 Gbps link.
  EngineJob a = spread_job(0, 0, 100, 0, 1), b = spread_job(1, 0, 100, 0, 2);
  pins()[0] = {{0, 0, 1000}, {0, 1, 1000}, {1, 0, 1000}, {1, 1, 1000}};
  pins()[1] = {{0, 2, 1000}, {0, 3, 1000}, {2, 0, 1000}, {2, 1, 1000}};
  a.info.num_gpus = b.info.num_gpus = 4;  // fits one node: its baseline is NVLink (300 Gbps)
  auto r = run_engine(two_racks(2), {a, b}, {-1}, o);
  // bw = 40 / 2 = 20 Gbps: 1 + 10 x (1/20 - 1/300) = 1.4667.
  CHECK(r.jobs[0].slowdown == doctest::Approx(1 + 10 * (1.0 / 20 - 1.0 / 300)).epsilon(1e-6));
  CHECK(r.jobs[0].end == doctest::Approx(100 * (1 + 10 * (1.0 / 20 - 1.0 / 300))).epsilon(1e-6));
  EngineJob quiet = spread_job(0, 0, 100, 0, 1);  // spread, but moves nothing
  quiet.comm_gbps = 0;
  EngineJob single = spread_job(1, 0, 100, 2, 2);
  pins()[1] = {{2, 0, 1000}, {2, 1, 1000}, {2, 2, 1000}, {2, 3, 1000}};  // all on n2
  single.info.num_gpus = 4;
  auto q = run_engine(two_racks(2), {quiet, single}, {-1}, o);
  CHECK(q.jobs[0].end == 100);
  CHECK(q.jobs[1].end == 100);
}

TEST_CASE("links: congestion_per_job belongs to the constant model") {
  auto o = links_options();
  o.congestion_per_job = 0.1;
  CHECK_THROWS_WITH_AS(run_engine(two_racks(2), {spread_job(0, 0, 100, 0, 2)}, {-1}, o),
                       doctest::Contains("congestion_per_job"), ConfigError);
}
