// sim.policy and sim.placer are declared once, with the engine that reads them.
#include <doctest/doctest.h>

#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "sim/run/sim_options.hpp"
#include "sim/run/simulation.hpp"

using namespace mlsys;
using namespace mlsys::sim;

TEST_CASE("sim.policy and sim.placer default to the engine's own defaults and reach a run's config") {
  const auto defaults = config::resolve({&sim_section()}, {}, {});
  const RunConfig d = base_config(defaults.get(sim_section()));
  CHECK(d.policy == EngineOptions{}.policy);
  CHECK(d.placer == EngineOptions{}.placer);
  CHECK(defaults.scalar("sim.policy") == EngineOptions{}.policy);
  CHECK(defaults.scalar("sim.placer") == EngineOptions{}.placer);
  const auto set = config::resolve({&sim_section()}, {}, {"sim.policy=sjf", "sim.placer=first_fit"});
  const RunConfig s = base_config(set.get(sim_section()));
  CHECK(s.policy == "sjf");
  CHECK(s.placer == "first_fit");
  // The registries still bound the keys.
  CHECK_THROWS_AS(config::resolve({&sim_section()}, {}, {"sim.policy=fifoo"}), ConfigError);
}
