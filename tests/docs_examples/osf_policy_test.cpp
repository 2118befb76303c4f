// docs/DEVELOPING.md's worked example "a scheduling policy with a tunable", built as written: the
// policy's file (here this test file, in its own test binary so that the shipped tables of the
// other suites stay as they are) declares the tunable and registers both; nothing else changes.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>

#include "core/util/error.hpp"
#include "sched/api/policy.hpp"
#include "sched/api/policy_params.hpp"
#include "sim/engine/engine.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace mlsys::sched {
namespace {
struct OsfTunables {
  int max_gpus = 4;
};  // the default
const config::Section<OsfTunables>& osf_tunables() {
  static const config::Section<OsfTunables> s("osf", "oldest-small-first", [](auto& s) {
    s.field("osf_max_gpus", &OsfTunables::max_gpus, "osf: jobs up to this many GPUs go first").range(1, 1e6);
  });
  return s;
}
const bool tunables_registered = add_policy_tunables(osf_tunables());
// Jobs of at most max_gpus GPUs first, then the others, each group oldest first; a job that does
// not fit is passed over (no head-of-line blocking).
class Osf final : public Policy {
 public:
  explicit Osf(const OsfTunables& t) : max_gpus_(t.max_gpus) {}
  void on_submit(JobId j, const ClusterView&) override { queue_.push_back(j); }
  void on_finish(JobId, const ClusterView&) override {}
  void schedule(SchedulerContext& ctx) override {
    std::stable_partition(queue_.begin(), queue_.end(), [&](JobId j) { return ctx.job(j).num_gpus <= max_gpus_; });
    std::deque<JobId> waiting;
    for (JobId j : queue_)
      if (!ctx.try_start(j)) waiting.push_back(j);
    queue_.swap(waiting);
  }

 private:
  int max_gpus_;
  std::deque<JobId> queue_;
};
const bool registered =
    policy_registry().add("osf", "Small jobs first, oldest first (example)",
                          [](const PolicyParams& p) { return std::make_unique<Osf>(p.get(osf_tunables())); });
}  // namespace
}  // namespace mlsys::sched

using namespace mlsys;

namespace {
// 1 node x 4 GPUs: A(t=0, 4 GPUs, 10 s), B(t=1, 3 GPUs, 5 s), C(t=2, 2 GPUs, 5 s); the first starts.
std::vector<double> starts(const std::string& policy, const std::string& max_gpus) {
  const double jobs[][3] = {{0, 4, 10}, {1, 3, 5}, {2, 2, 5}};
  std::vector<sim::EngineJob> js;
  for (size_t i = 0; i < 3; ++i) {
    sim::EngineJob e;
    e.info.id = static_cast<sched::JobId>(i);
    e.info.submit = jobs[i][0];
    e.info.num_gpus = int(jobs[i][1]);
    e.info.estimate = e.duration = jobs[i][2];
    js.push_back(e);
  }
  sim::EngineOptions o;
  o.policy = policy;
  o.sample_interval = 0;
  if (!max_gpus.empty()) o.policy_params.set("osf_max_gpus", max_gpus);
  std::vector<double> out;
  for (const auto& j : sim::run_engine(test::nodes(1, 4), js, {-1}, o).jobs) out.push_back(j.first_start);
  return out;
}
}  // namespace

TEST_CASE("docs example policy: osf and its tunable register from one file") {
  REQUIRE(sched::tunables_registered);
  REQUIRE(sched::registered);
  CHECK(sched::policy_registry().contains("osf"));
  const config::FieldBase* key = sched::policy_params_section().find("osf_max_gpus");
  REQUIRE(key != nullptr);
  CHECK(key->description().find("osf:") == 0);
  sched::PolicyParams p;
  CHECK_THROWS_AS(p.set("osf_max_gpus", "0"), ConfigError);  // its bounds are checked
}

TEST_CASE("docs example policy: osf starts small jobs first, as its tunable says") {
  // At 10 s, A ends; B (3 GPUs) and C (2 GPUs) wait. max_gpus 2: C is small and goes first (10-15),
  // B does not fit beside it and starts at 15. max_gpus 4: both are small, oldest first: B at 10,
  // C (2 GPUs, 1 free) at 15 - FIFO's order.
  CHECK(starts("osf", "2") == std::vector<double>{0, 15, 10});
  CHECK(starts("osf", "4") == std::vector<double>{0, 10, 15});
  CHECK(starts("osf", "") == starts("fifo", ""));  // the default, 4
}
