// The policies' tunables: declared in each policy's file, reached through one section, set by key.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/util/error.hpp"
#include "sched/api/policy.hpp"
#include "sched/api/policy_params.hpp"

using namespace mlsys;
using namespace mlsys::sched;

namespace {

// A tunable declared the way a new policy's file declares it: struct, section, registration.
struct ProbeTunables {
  double probe_weight = 0.5;
};
const config::Section<ProbeTunables>& probe_tunables() {
  static const config::Section<ProbeTunables> s("probe", "test policy", [](auto& s) {
    s.field("probe_weight", &ProbeTunables::probe_weight, "probe: test-only weight").range(0, 1);
  });
  return s;
}
const bool probe_registered = add_policy_tunables(probe_tunables());

std::vector<std::string> keys() {
  std::vector<std::string> out;
  for (const auto& f : policy_params_section().fields()) out.push_back(f->key());
  return out;
}

}  // namespace

TEST_CASE("every policy file's tunables appear in the section, grouped and ordered by first key") {
  REQUIRE(probe_registered);
  // The shipped policies' keys, in the order config.yaml and docs/CONFIG.md list them.
  std::vector<std::string> expected = {"backfill_depth", "las_thresholds", "las_round_s", "las_starvation_factor",
                                       "max_migrations_per_round", "probe_weight"};
  CHECK(keys() == expected);
  CHECK(policy_params_section().find("las_round_s")->description().find("las:") == 0);
}

TEST_CASE("set() changes what the policy struct reads, and copies own their values") {
  PolicyParams p;
  CHECK(p.get(probe_tunables()).probe_weight == doctest::Approx(0.5));
  p.set("probe_weight", "0.25");
  CHECK(p.get(probe_tunables()).probe_weight == doctest::Approx(0.25));
  PolicyParams copy = p;
  copy.set("probe_weight", "0.75");
  CHECK(p.get(probe_tunables()).probe_weight == doctest::Approx(0.25));
  CHECK(copy.get(probe_tunables()).probe_weight == doctest::Approx(0.75));
  // A shipped policy still builds from params that were set by key.
  PolicyParams las;
  las.set("las_thresholds", "[100, 1000]");
  CHECK(policy_registry().create("las", las)->preemptive());
}

TEST_CASE("set() refuses unknown keys and values outside the declared bounds") {
  PolicyParams p;
  CHECK_THROWS_AS(p.set("probe_weigth", "0.1"), ConfigError);
  CHECK_THROWS_AS(p.set("probe_weight", "2"), ConfigError);
  CHECK_THROWS_AS(p.set("las_round_s", "0"), ConfigError);
}
