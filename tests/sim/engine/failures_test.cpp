// Failed jobs, retries (blind, SchedMate's failure actions) and switch congestion on hand-computed
// tiny traces (times worked out in comments), plus invariants with failures for every policy.
#include <doctest/doctest.h>

#include <iterator>

#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "sched/api/policy.hpp"
#include "sim/engine/engine.hpp"
#include "sim/engine/failures.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

using namespace mlsys;
using namespace mlsys::sim;
using mlsys::test::nodes;
using mlsys::workload::FailureAction;

namespace {

constexpr FailureAction kActions[] = {FailureAction::None, FailureAction::Resubmit, FailureAction::ResubmitExcludeNode,
                                      FailureAction::ResubmitMoreMemory, FailureAction::DoNotRetry};

EngineJob job(int id, double submit, int gpus, double duration) {
  EngineJob e;
  e.info.id = id;
  e.info.submit = submit;
  e.info.num_gpus = gpus;
  e.info.estimate = duration;
  e.duration = duration;
  return e;
}

// A job whose first attempt fails after `duration`; a successful retry runs `retry_s`.
EngineJob failing(int id, double submit, int gpus, double duration, FailureCause cause, FailureAction action,
                  double retry_s) {
  EngineJob e = job(id, submit, gpus, duration);
  e.failure.fails = true;
  e.failure.cause = cause;
  e.failure.action = action;
  e.failure.retry_duration = retry_s;
  return e;
}

EngineResult run(std::vector<EngineJob> jobs, sched::ClusterState c, int max_retries, double delay = 0,
                 const std::string& policy = "fifo") {
  EngineOptions o;
  o.policy = policy;
  o.placer = "consolidate";
  o.sample_interval = 0;
  o.max_retries = max_retries;
  o.retry_delay = delay;
  return run_engine(std::move(c), jobs, {-1}, o);
}

}  // namespace

TEST_CASE("failures golden: a failed attempt is retried at the back of the queue, its GPU-time is wasted") {
  // 1 node x 4 GPUs. A(0, 2 GPUs) fails after 10 s (a retry would run 20 s); B(1, 4 GPUs, 5 s).
  std::vector<EngineJob> js = {failing(0, 0, 2, 10, FailureCause::Transient, FailureAction::Resubmit, 20), job(1, 1, 4, 5)};
  // No retry: A ends failed at 10 (2 GPUs x 10 s wasted); B runs 10-15.
  auto none = run(js, nodes(1, 4), 0);
  CHECK(none.jobs[0].end == 10);
  CHECK(none.jobs[0].outcome == JobOutcome::Failed);
  CHECK(none.jobs[0].wasted_gpu_s == 20);
  CHECK(none.jobs[1].end == 15);
  // Retry: A is resubmitted at 10 behind B (FIFO); B runs 10-15, A's retry 15-35 and succeeds.
  auto retry = run(js, nodes(1, 4), 1);
  CHECK(retry.jobs[1].first_start == 10);
  CHECK(retry.jobs[0].first_start == 0);
  CHECK(retry.jobs[0].end == 35);
  CHECK(retry.jobs[0].queue_delay == 5);  // 15 - 10: waiting as a retry
  CHECK(retry.jobs[0].outcome == JobOutcome::Recovered);
  CHECK(retry.jobs[0].retries == 1);
  CHECK(retry.jobs[0].failed_attempts == 1);
  CHECK(retry.jobs[0].wasted_gpu_s == 20);
  CHECK(retry.gpu_seconds == doctest::Approx(2 * 10 + 4 * 5 + 2 * 20));
  // Resubmission delay 8: A re-arrives at 18, after B (10-15): runs 18-38, never queued.
  auto late = run(js, nodes(1, 4), 1, 8);
  CHECK(late.jobs[0].end == 38);
  CHECK(late.jobs[0].queue_delay == 0);
  auto m = failure_metrics(retry.jobs);
  CHECK(m.failed_jobs == 1);
  CHECK(m.recovered == 1);
  CHECK(m.abandoned == 0);
  CHECK(m.wasted_gpu_hours == doctest::Approx(20.0 / 3600));
}

TEST_CASE("failures golden: do_not_retry is honoured, persistent and memory failures recur") {
  auto one = [](FailureCause c, FailureAction a, int max_retries) {
    return run({failing(0, 0, 2, 10, c, a, 20)}, nodes(1, 4), max_retries);
  };
  // do_not_retry: ends at its failed attempt even with retries allowed.
  auto dnr = one(FailureCause::Persistent, FailureAction::DoNotRetry, 3);
  CHECK(dnr.jobs[0].end == 10);
  CHECK(dnr.jobs[0].retries == 0);
  CHECK(dnr.jobs[0].outcome == JobOutcome::NotRetried);
  // A persistent failure under blind retries: 3 attempts x 2 GPUs x 10 s = 60 GPU-s, all wasted.
  auto blind = one(FailureCause::Persistent, FailureAction::Resubmit, 2);
  CHECK(blind.jobs[0].end == 30);
  CHECK(blind.jobs[0].failed_attempts == 3);
  CHECK(blind.jobs[0].outcome == JobOutcome::RetriesExhausted);
  CHECK(blind.jobs[0].wasted_gpu_s == 60);
  // Out of memory: a plain resubmit fails again, resubmit_more_memory succeeds (10 + 20).
  CHECK(one(FailureCause::Memory, FailureAction::Resubmit, 1).jobs[0].outcome == JobOutcome::RetriesExhausted);
  auto mem = one(FailureCause::Memory, FailureAction::ResubmitMoreMemory, 1);
  CHECK(mem.jobs[0].outcome == JobOutcome::Recovered);
  CHECK(mem.jobs[0].end == 30);
  auto fm = failure_metrics(blind.jobs);
  CHECK(fm.abandoned == 1);
  CHECK(fm.retries_exhausted == 1);
  CHECK(fm.retries == 2);
}

TEST_CASE("failures golden: resubmit_exclude_node keeps the retry off the failed attempt's node") {
  // 2 nodes x 4 GPUs. A(0, 4 GPUs) fails after 10 s on node 0 (a bad node); B(0, 4 GPUs, 100 s)
  // holds node 1 until 100. A plain retry at 10 lands on node 0 again and fails at 20; excluding
  // node 0 makes the retry wait for node 1 (100) and succeed there: 100 + 20 = 120.
  std::vector<EngineJob> js = {failing(0, 0, 4, 10, FailureCause::Node, FailureAction::Resubmit, 20), job(1, 0, 4, 100)};
  auto blind = run(js, nodes(2, 4), 1);
  CHECK(blind.jobs[0].end == 20);
  CHECK(blind.jobs[0].outcome == JobOutcome::RetriesExhausted);
  js[0].failure.action = FailureAction::ResubmitExcludeNode;
  auto excl = run(js, nodes(2, 4), 1);
  CHECK(excl.jobs[0].end == 120);
  CHECK(excl.jobs[0].outcome == JobOutcome::Recovered);
  CHECK(excl.jobs[0].queue_delay == 90);
  // Every policy honours the exclusion (the engine hides the node from the placer).
  for (const auto& policy : sched::policy_registry().names()) {
    if (policy.rfind("test_", 0) == 0) continue;
    CAPTURE(policy);
    auto r = run(js, nodes(2, 4), 1, 0, policy);
    CHECK(r.jobs[0].outcome == JobOutcome::Recovered);
    CHECK(r.jobs[0].end >= 120);
  }
  // A cluster with no other node: the exclusion is dropped rather than leaving the job stuck.
  auto only = run({js[0]}, nodes(1, 4), 1);
  CHECK(only.jobs[0].end == 20);
  CHECK(only.jobs[0].outcome == JobOutcome::RetriesExhausted);
}

TEST_CASE("congestion golden: multi-node jobs sharing a rack slow each other while both run") {
  // 6 nodes x 4 GPUs, first fit. A(0, 8 GPUs, 10 s) on nodes 0-1, B(0, 8 GPUs, 20 s) on nodes 2-3,
  // C(0, 4 GPUs, 30 s) on node 4 (single node: no network). Congestion 0.5 per other multi-node job.
  auto jobs = std::vector<EngineJob>{job(0, 0, 8, 10), job(1, 0, 8, 20), job(2, 0, 4, 30)};
  EngineOptions o;
  o.policy = "fifo";
  o.placer = "first_fit";
  o.sample_interval = 0;
  o.slowdown = true;
  o.slowdown_per_extra_node = 0;
  o.slowdown_per_extra_rack = 0;
  // Off (default): no effect.
  auto off = run_engine(nodes(6, 4), jobs, {-1}, o);
  CHECK(off.jobs[0].end == 10);
  CHECK(off.jobs[1].end == 20);
  o.congestion_per_job = 0.5;
  // One rack: both run 1.5x slower while together; A ends at 15; B has done 10 s of work by then
  // and runs its last 10 s alone: 25. C is unaffected.
  auto one_rack = run_engine(nodes(6, 4), jobs, {-1}, o);
  CHECK(one_rack.jobs[0].end == doctest::Approx(15));
  CHECK(one_rack.jobs[1].end == doctest::Approx(25));
  CHECK(one_rack.jobs[2].end == 30);
  CHECK(one_rack.jobs[0].slowdown == doctest::Approx(1.5));
  CHECK(one_rack.jobs[1].slowdown == doctest::Approx(1.5));
  // Two nodes per rack: A and B are on different racks and do not meet.
  auto split = run_engine(nodes(6, 4, 2), jobs, {-1}, o);
  CHECK(split.jobs[0].end == 10);
  CHECK(split.jobs[1].end == 20);
}

TEST_CASE("failures invariants: every policy x placer ends every job once with failures, retries and congestion") {
  std::vector<sched::NodeSpec> ns(6);
  for (int i = 0; i < 6; ++i) {
    ns[i].name = "n" + std::to_string(i);
    ns[i].gpus = 8;
    ns[i].rack = i / 2;
  }
  mlsys::Rng rng(3);
  auto gap = [](mlsys::Rng& r) { return r.exponential(1.0 / 60); };
  auto dur = [](mlsys::Rng& r) { return std::exp(6 + 1.5 * r.normal()); };  // log-normal(6, 1.5)
  const int gpus[] = {1, 2, 4, 8, 16, 24};
  std::vector<EngineJob> jobs;
  double t = 0;
  for (int i = 0; i < 200; ++i) {
    t += gap(rng);
    double d = std::max(1.0, std::floor(dur(rng)));
    auto e = job(i, std::floor(t), gpus[rng.below(6)], d);
    e.info.vc = i % 3;
    if (rng.below(4) == 0) {
      e.failure.fails = true;
      e.failure.cause = static_cast<FailureCause>(rng.below(4));
      e.failure.action = kActions[rng.below(std::size(kActions))];
      e.failure.retry_duration = d * 2;
    }
    jobs.push_back(e);
  }
  for (const auto& policy : sched::policy_registry().names()) {
    if (policy.rfind("test_", 0) == 0) continue;
    for (const auto& placer : sched::placer_registry().names()) {
      CAPTURE(policy);
      CAPTURE(placer);
      EngineOptions o;
      o.policy = policy;
      o.placer = placer;
      o.sample_interval = 600;
      o.borrowing = true;
      o.max_retries = 2;
      o.retry_delay = placer == std::string("random") ? 30 : 0;
      o.slowdown = true;
      o.congestion_per_job = 0.2;
      auto r = run_engine(sched::ClusterState(ns, {"v100"}), jobs, {16, 16, 16}, o);
      auto again = run_engine(sched::ClusterState(ns, {"v100"}), jobs, {16, 16, 16}, o);
      int bad = 0;
      for (size_t i = 0; i < jobs.size(); ++i) {
        const auto& x = r.jobs[i];
        bool ok = x.end >= x.first_start && x.first_start >= jobs[i].info.submit && x.retries <= 2 &&
                  x.failed_attempts <= x.retries + 1 && x.wasted_gpu_s >= 0 && x.end == again.jobs[i].end;
        ok = ok && (jobs[i].failure.fails ? x.failed_attempts >= 1 : x.failed_attempts == 0 && x.outcome == JobOutcome::Completed);
        bad += !ok;
      }
      CHECK(bad == 0);
      for (const auto& s : r.samples) CHECK(s.util <= 1 + 1e-9);
    }
  }
}
