// Invariants on random traces for every registered policy x placer, and decision validation.
#include <doctest/doctest.h>


#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "sched/api/policy.hpp"
#include "sim/engine/engine.hpp"

using namespace mlsys;
using namespace mlsys::sim;

namespace {

sched::ClusterState cluster() {
  std::vector<sched::NodeSpec> ns(6);
  for (int i = 0; i < 6; ++i) {
    ns[i].name = "n" + std::to_string(i);
    ns[i].gpus = 8;
    ns[i].rack = i / 2;
    ns[i].spine = i / 4;
  }
  return sched::ClusterState(ns, {"v100"});
}

std::vector<EngineJob> random_jobs(uint64_t seed, int n, bool fractional) {
  mlsys::Rng rng(seed);
  auto gap = [](mlsys::Rng& r) { return r.exponential(1.0 / 60); };
  auto dur = [](mlsys::Rng& r) { return std::exp(6 + 1.5 * r.normal()); };  // log-normal(6, 1.5)
  auto g = [](mlsys::Rng& r) {  // weights 40/15/15/15/8/5/2 of the sizes below
    const double cumulative[] = {40, 55, 70, 85, 93, 98, 100};
    const double u = 100 * r.uniform();
    int k = 0;
    while (k < 6 && u >= cumulative[k]) ++k;
    return k;
  };
  const int gpus[] = {1, 2, 3, 4, 8, 16, 24};
  std::vector<EngineJob> out;
  double t = 0;
  for (int i = 0; i < n; ++i) {
    t += gap(rng);
    EngineJob e;
    e.info.id = i;
    e.info.submit = std::floor(t);
    e.info.num_gpus = gpus[g(rng)];
    e.info.vc = i % 3;
    if (fractional && i % 4 == 0) {
      e.info.num_gpus = 1;
      e.info.gpu_milli = 250 * (1 + i % 3);
    }
    e.duration = std::max(1.0, std::floor(dur(rng)));
    e.info.estimate = e.duration * (0.5 + (i % 5) * 0.25);
    out.push_back(e);
  }
  return out;
}

bool is_test_policy(const std::string& name) { return name.rfind("test_", 0) == 0; }

}  // namespace

TEST_CASE("engine invariants: every policy x placer finishes every job exactly once within capacity") {
  for (bool fractional : {false, true}) {
    auto jobs = random_jobs(fractional ? 11 : 5, 300, fractional);
    for (const auto& policy : sched::policy_registry().names()) {
      if (is_test_policy(policy)) continue;
      for (const auto& placer : sched::placer_registry().names()) {
        CAPTURE(policy);
        CAPTURE(placer);
        CAPTURE(fractional);
        EngineOptions o;
        o.policy = policy;
        o.placer = placer;
        o.sample_interval = 600;
        o.policy_params.set("las_round_s", "120");
        o.borrowing = true;
        auto r = run_engine(cluster(), jobs, {16, 16, 16}, o);
        bool preemptive = sched::policy_registry().create(policy, o.policy_params)->preemptive();
        int bad = 0;
        for (size_t i = 0; i < jobs.size(); ++i) {
          const auto& x = r.jobs[i];
          bool ok = x.first_start >= jobs[i].info.submit && x.end >= x.first_start + jobs[i].duration - 1e-6 &&
                    x.queue_delay >= -1e-9 && x.queue_delay <= x.end - jobs[i].info.submit + 1e-6;
          if (!preemptive) ok = ok && std::abs(x.end - x.first_start - jobs[i].duration) < 1e-6 && x.preemptions == 0;
          bad += !ok;
        }
        CHECK(bad == 0);
        for (const auto& s : r.samples) {
          CHECK(s.util <= 1 + 1e-9);
          CHECK(s.used_gpus <= 48 + 1e-9);
        }
        double work = 0;
        for (const auto& j : jobs) work += j.duration * j.info.num_gpus * (j.info.gpu_milli / 1000.0);
        CHECK(r.gpu_seconds >= work - 1e-3);  // never less allocated time than the work itself
      }
    }
  }
}

namespace {

// Deliberately wrong policies, to show the engine rejects their decisions.
class DoubleBooker final : public sched::Policy {
 public:
  void on_submit(sched::JobId j, const sched::ClusterView&) override { q_.push_back(j); }
  void on_finish(sched::JobId, const sched::ClusterView&) override {}
  void schedule(sched::SchedulerContext& ctx) override {
    for (auto j : q_)
      if (ctx.status(j) == sched::JobStatus::Pending) ctx.start(j, {sched::GpuSlice{0, 0, 1000}});
  }
  std::vector<sched::JobId> q_;
};
class Restarter final : public sched::Policy {
 public:
  void on_submit(sched::JobId j, const sched::ClusterView&) override { q_.push_back(j); }
  void on_finish(sched::JobId, const sched::ClusterView&) override {}
  void schedule(sched::SchedulerContext& ctx) override {
    for (auto j : q_) ctx.try_start(j);
  }
  std::vector<sched::JobId> q_;
};
class Idle final : public sched::Policy {
 public:
  void on_submit(sched::JobId, const sched::ClusterView&) override {}
  void on_finish(sched::JobId, const sched::ClusterView&) override {}
  void schedule(sched::SchedulerContext&) override {}
};
const bool r1 = sched::policy_registry().add("test_double_booker", "test only", [](const sched::PolicyParams&) {
  return std::make_unique<DoubleBooker>();
});
const bool r2 = sched::policy_registry().add("test_restarter", "test only", [](const sched::PolicyParams&) {
  return std::make_unique<Restarter>();
});
const bool r3 = sched::policy_registry().add("test_idle", "test only", [](const sched::PolicyParams&) {
  return std::make_unique<Idle>();
});

EngineResult run_policy(const std::string& policy, std::vector<EngineJob> jobs) {
  EngineOptions o;
  o.policy = policy;
  o.sample_interval = 0;
  return run_engine(cluster(), jobs, {-1, -1, -1}, o);
}

}  // namespace

TEST_CASE("engine validation: invalid decisions are rejected with the policy's name") {
  auto jobs = random_jobs(1, 3, false);
  for (auto& j : jobs) j.info.num_gpus = 1;
  std::string msg;
  try {
    run_policy("test_double_booker", jobs);
  } catch (const Error& e) {
    msg = e.what();
  }
  CHECK(msg.find("policy 'test_double_booker'") != std::string::npos);
  CHECK(msg.find("capacity exceeded") != std::string::npos);
  CHECK_THROWS_WITH_AS(run_policy("test_restarter", jobs), doctest::Contains("not pending"), Error);
  CHECK_THROWS_WITH_AS(run_policy("test_idle", jobs), doctest::Contains("left 3 job(s) unfinished"), Error);
  auto big = random_jobs(1, 2, false);
  big[1].info.num_gpus = 64;
  CHECK_THROWS_WITH_AS(run_policy("fifo", big), doctest::Contains("needs 64 GPUs"), InputError);
  // Quota without borrowing: a start beyond the VC's quota is refused.
  EngineOptions o;
  o.policy = "test_double_booker";
  CHECK_THROWS_WITH_AS(run_engine(cluster(), jobs, {0, 0, 0}, o), doctest::Contains("quota"), Error);
}

TEST_CASE("engine determinism: same inputs and seed give identical records") {
  auto jobs = random_jobs(7, 400, true);
  for (const auto& placer : {"random", "fgd"}) {
    EngineOptions o;
    o.policy = "las";
    o.placer = placer;
    o.seed = 42;
    auto a = run_engine(cluster(), jobs, {-1}, o);
    auto b = run_engine(cluster(), jobs, {-1}, o);
    bool same = a.samples.size() == b.samples.size();
    for (size_t i = 0; i < jobs.size(); ++i)
      same = same && a.jobs[i].end == b.jobs[i].end && a.jobs[i].first_start == b.jobs[i].first_start;
    CHECK(same);
  }
}
