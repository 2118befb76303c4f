// Hand-computed tiny traces for every scheduling policy (times worked out on paper in comments).
#include <doctest/doctest.h>

#include "core/util/error.hpp"
#include "sim/engine/engine.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

using namespace mlsys;
using namespace mlsys::sim;
using mlsys::test::nodes;

namespace {

struct J {
  double submit;
  int gpus;
  double duration;
  int vc = 0;
};

std::vector<EngineJob> make(const std::vector<J>& js) {
  std::vector<EngineJob> out;
  for (size_t i = 0; i < js.size(); ++i) {
    EngineJob e;
    e.info.id = static_cast<sched::JobId>(i);
    e.info.submit = js[i].submit;
    e.info.num_gpus = js[i].gpus;
    e.info.vc = js[i].vc;
    e.info.estimate = js[i].duration;  // oracle
    e.duration = js[i].duration;
    out.push_back(e);
  }
  return out;
}

EngineResult run(const std::string& policy, const std::vector<J>& js, sched::ClusterState c,
                 std::vector<int> quota = {-1}, bool borrowing = false) {
  EngineOptions o;
  o.policy = policy;
  o.placer = "consolidate";
  o.sample_interval = 0;
  o.borrowing = borrowing;
  auto jobs = make(js);
  return run_engine(std::move(c), jobs, quota, o);
}

std::vector<double> starts(const EngineResult& r) {
  std::vector<double> s;
  for (const auto& j : r.jobs) s.push_back(j.first_start);
  return s;
}
std::vector<double> ends(const EngineResult& r) {
  std::vector<double> s;
  for (const auto& j : r.jobs) s.push_back(j.end);
  return s;
}

}  // namespace

TEST_CASE("policy golden: fifo blocks at the head, sjf orders by duration") {
  // 1 node x 4 GPUs. A(0, 4 GPUs, 10 s) B(1, 2, 5) C(2, 1, 2) D(3, 2, 1).
  std::vector<J> js = {{0, 4, 10}, {1, 2, 5}, {2, 1, 2}, {3, 2, 1}};
  // FIFO: at 10 B and C start (1 GPU left), D (2) waits for C to end at 12.
  auto f = run("fifo", js, nodes(1, 4));
  CHECK(starts(f) == std::vector<double>{0, 10, 10, 12});
  CHECK(ends(f) == std::vector<double>{10, 15, 12, 13});
  CHECK(f.jobs[3].queue_delay == 9);
  // SJF: at 10 the queue is D(1 s), C(2 s), B(5 s): D and C start, B waits for D (ends 11).
  auto s = run("sjf", js, nodes(1, 4));
  CHECK(starts(s) == std::vector<double>{0, 11, 10, 10});
  CHECK(ends(s) == std::vector<double>{10, 16, 12, 11});
}

TEST_CASE("policy golden: qssf orders by GPU time, sjf by duration") {
  // 1 node x 4 GPUs. A(0, 4, 10); B(1, 3 GPUs, 40 s: 120 GPU-s); D(2, 2 GPUs, 50 s: 100 GPU-s).
  std::vector<J> js = {{0, 4, 10}, {1, 3, 40}, {2, 2, 50}};
  auto q = run("qssf", js, nodes(1, 4));  // D first (10-60); B (3 GPUs) waits until 60
  CHECK(starts(q) == std::vector<double>{0, 60, 10});
  auto s = run("sjf", js, nodes(1, 4));  // B first (10-50); D waits until 50
  CHECK(starts(s) == std::vector<double>{0, 10, 50});
}

TEST_CASE("policy golden: easy backfills only jobs that do not delay the head") {
  // 1 node x 4 GPUs. A(0, 2, 10) B(1, 4, 5) C(2, 2, 3) D(3, 2, 20).
  std::vector<J> js = {{0, 2, 10}, {1, 4, 5}, {2, 2, 3}, {3, 2, 20}};
  auto f = run("fifo", js, nodes(1, 4));
  CHECK(starts(f) == std::vector<double>{0, 10, 15, 15});
  // EASY: B's reservation is t=10 (A ends). C ends at 5 <= 10: backfilled at 2. D would end at
  // 25 > 10 and no GPU is spare at 10, so it waits for B.
  auto e = run("easy", js, nodes(1, 4));
  CHECK(starts(e) == std::vector<double>{0, 10, 2, 15});
}

TEST_CASE("policy golden: srtf preempts the longer job and charges the checkpoint penalty") {
  // 1 node x 4 GPUs. A(0, 4, 10) B(1, 4, 2). At 1 A has 9 s left > 2: preempted.
  auto r = run("srtf", {{0, 4, 10}, {1, 4, 2}}, nodes(1, 4));
  CHECK(starts(r) == std::vector<double>{0, 1});
  CHECK(r.jobs[1].end == 3);
  // A resumes at 3 with a 30 s restore penalty (2-8 GPUs) and 9 s of work left.
  CHECK(r.jobs[0].end == 3 + 30 + 9);
  CHECK(r.jobs[0].preemptions == 1);
  CHECK(r.jobs[0].queue_delay == 2);
  CHECK(r.preemptions == 1);
}

TEST_CASE("policy golden: las demotes a job past its threshold at the next round") {
  EngineOptions o;
  o.policy = "las";
  o.sample_interval = 0;
  o.policy_params.set("las_thresholds", "[100]");
  o.policy_params.set("las_round_s", "10");
  o.policy_params.set("las_starvation_factor", "10");
  // 1 node x 4 GPUs. A(0, 4, 100) B(5, 4, 20). A reaches 120 GPU-s at the round of t=30 and is
  // demoted; B (queue 0) preempts it, runs 30-50; A resumes at 50 with 30 s penalty, 70 s left.
  auto jobs = make({{0, 4, 100}, {5, 4, 20}});
  auto r = run_engine(nodes(1, 4), jobs, {-1}, o);
  CHECK(starts(r) == std::vector<double>{0, 30});
  CHECK(r.jobs[1].end == 50);
  CHECK(r.jobs[0].end == 50 + 30 + 70);
  CHECK(r.jobs[0].preemptions == 1);
}

TEST_CASE("policy golden: gandiva migrates a small job to make room for the head") {
  // 2 nodes x 4 GPUs. A(0, 2, 10) and B(0, 2, 100) on node 0, C(0, 2, 100) on node 1. After A
  // ends, each node has 2 free. D(20, 4 GPUs, 50 s) fits by count only: B moves to node 1
  // (30 s migration penalty, 20 s done, 80 left: ends 130) and D runs 20-70 on node 0.
  std::vector<J> js = {{0, 2, 10}, {0, 2, 100}, {0, 2, 100}, {20, 4, 50}};
  auto g = run("gandiva", js, nodes(2, 4));
  CHECK(g.migrations == 1);
  CHECK(g.jobs[1].migrations == 1);
  CHECK(starts(g)[3] == 20);
  CHECK(g.jobs[3].end == 70);
  CHECK(g.jobs[1].end == 130);
  auto f = run("fifo", js, nodes(2, 4));
  CHECK(starts(f)[3] == 100);  // FIFO waits for B and C
}

TEST_CASE("policy golden: fairshare guarantees quotas, lends idle GPUs and reclaims them") {
  // Shared 1 node x 4 GPUs; VC 0 and VC 1 each guaranteed 2 GPUs.
  // a1(0, vc0, 2, 100) a2(0, vc0, 2, 100) b1(10, vc1, 2, 10).
  std::vector<J> js = {{0, 2, 100, 0}, {0, 2, 100, 0}, {10, 2, 10, 1}};
  // Borrowing: a2 borrows VC 1's idle GPUs at 0; b1 reclaims them at 10 (a2 preempted), runs
  // 10-20; a2 resumes at 20 with 30 s penalty and 90 s left.
  auto b = run("fairshare", js, nodes(1, 4), {2, 2}, true);
  CHECK(starts(b) == std::vector<double>{0, 0, 10});
  CHECK(b.jobs[2].end == 20);
  CHECK(b.jobs[1].preemptions == 1);
  CHECK(b.jobs[1].end == 20 + 30 + 90);
  // No borrowing: a2 waits for a1; b1 starts at once on its own quota.
  auto n = run("fairshare", js, nodes(1, 4), {2, 2}, false);
  CHECK(starts(n) == std::vector<double>{0, 100, 10});
  CHECK(n.preemptions == 0);
}

TEST_CASE("engine: slowdown model charges jobs spread over more nodes than needed") {
  EngineOptions o;
  o.policy = "fifo";
  o.placer = "first_fit";
  o.sample_interval = 0;
  o.slowdown = true;
  o.slowdown_per_extra_node = 0.5;
  o.slowdown_per_extra_rack = 0;
  // 3 nodes x 4; A(0, 2, 100) on node 0, C(0, 3, 100) on node 1; B(0, 5, 10) needs 2 nodes but
  // first fit spreads it 2+1+2 over 3: one extra node, 1.5x slower.
  auto jobs = make({{0, 2, 100}, {0, 3, 100}, {0, 5, 10}});
  auto r = run_engine(nodes(3, 4), jobs, {-1}, o);
  CHECK(r.jobs[2].nodes == 3);
  CHECK(r.jobs[2].end == doctest::Approx(15));
}

TEST_CASE("engine: time series samples utilization, queue and stranded GPUs") {
  EngineOptions o;
  o.policy = "fifo";
  o.sample_interval = 10;
  // 1 node x 4: A(0, 3, 20) then B(0, 2, 10) waits (1 GPU stranded for a 2-GPU head).
  auto jobs = make({{0, 3, 20}, {0, 2, 10}});
  auto r = run_engine(nodes(1, 4), jobs, {-1}, o);
  REQUIRE(r.samples.size() >= 3);
  CHECK(r.samples[0].time == 10);
  CHECK(r.samples[0].util == doctest::Approx(0.75));
  CHECK(r.samples[0].pending == 1);
  CHECK(r.samples[0].frag_gpus == 1);
  CHECK(r.samples[2].util == doctest::Approx(0.5));  // 20-30: B alone
  CHECK(r.gpu_seconds == doctest::Approx(3 * 20 + 2 * 10));
}

TEST_CASE("policy golden: easy reserves by GPU count, easy_nodes by whole free GPUs per node") {
  // 2 nodes x 4 GPUs. At 0 A, B, C, D (2 GPUs each) start: best fit puts A, B on n0 and C, D on
  // n1; ends A 10 (n0), C 20 (n1), B 30 (n0), D 40 (n1). H (4 GPUs, one node) arrives at 1, J
  // (2 GPUs, 15 s) at 2.
  const std::vector<J> js = {{0, 2, 10}, {0, 2, 30}, {0, 2, 20}, {0, 2, 40}, {1, 4, 5}, {2, 2, 15}};
  // easy: H's shadow is 20 (A and C free 4 GPUs, 2 per node). At 10 J would end at 25 > 20 with
  // no GPU to spare: not backfilled. At 20 the shadow moves to 30 (B ends: 6 free, 2 spare); J
  // (ends 35) takes the 2 spare GPUs on n0 (best fit, lowest index), so at 30 n0 still holds J:
  // H waits until J ends at 35.
  auto c = run("easy", js, nodes(2, 4));
  CHECK(c.jobs[5].first_start == 20);
  CHECK(c.jobs[4].first_start == 35);
  // easy_nodes: H fits only when a node has 4 free GPUs: B's end at 30 frees n0. At 10 J ends at
  // 25 <= 30: backfilled on n0's 2 free GPUs; H starts at 30 as reserved.
  auto n = run("easy_nodes", js, nodes(2, 4));
  CHECK(n.jobs[5].first_start == 10);
  CHECK(n.jobs[5].end == 25);
  CHECK(n.jobs[4].first_start == 30);
  for (size_t i = 0; i < 4; ++i) CHECK(n.jobs[i].end == c.jobs[i].end);
}

TEST_CASE("policy golden: easy_nodes falls back to the count when no node set can hold the head") {
  // Nodes of 4, 2 and 2 GPUs, first-fit placer (spreads large jobs). A (4 GPUs, 10 s) on n0, B
  // (2 GPUs, 20 s) on n1; H (8 GPUs) arrives at 1, J (2 GPUs, 30 s) at 2. Two whole free 4-GPU
  // nodes never exist, so the node rule never holds: the shadow is the count's, 20 (B's end), and
  // J (ends 32 > 20, nothing to spare) is not backfilled: H starts at 20, J after it at 25.
  std::vector<sched::NodeSpec> ns(3);
  ns[0].gpus = 4;
  ns[1].gpus = 2;
  ns[2].gpus = 2;
  auto jobs = make({{0, 4, 10}, {0, 2, 20}, {1, 8, 5}, {2, 2, 30}});
  for (const char* p : {"easy", "easy_nodes"}) {
    CAPTURE(p);
    EngineOptions o;
    o.policy = p;
    o.placer = "first_fit";
    o.sample_interval = 0;
    auto r = run_engine(sched::ClusterState(ns, {"v100"}), jobs, {-1}, o);
    CHECK(r.jobs[2].first_start == 20);
    CHECK(r.jobs[3].first_start == 25);
  }
}
