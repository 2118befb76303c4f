// docs/DEVELOPING.md's worked example "a command mode", built as written: a function and one
// add_command_mode call in the mode's file (here this test file, in its own test binary so that
// the other suites see the shipped modes); the mode key's choices, --help and dispatch pick it up.
#include <doctest/doctest.h>

#include "core/config/resolve.hpp"
#include "core/runtime/command.hpp"
#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "sim/command.hpp"
#include "sim/run/sim_options.hpp"
#include "tests/common/test_util.hpp"

namespace mlsys::sim {
namespace {
void hello_mode(RunContext& ctx) {
  ctx.summary()["greeting"] = "hello from " + ctx.command();
  ctx.say("hello");
}
const bool registered = add_command_mode("simulate", {"hello", "say hello (docs example)", hello_mode});
}  // namespace
}  // namespace mlsys::sim

using namespace mlsys;

TEST_CASE("docs example mode: `simulate hello` is a choice of sim.mode and runs in the command's frame") {
  REQUIRE(sim::registered);
  const CommandSpec& cmd = sim::simulate_command();
  bool listed = false;
  for (const auto& c : sim::sim_section().find("mode")->described_choices())
    listed = listed || (c.name == "hello" && c.description == "say hello (docs example)");
  CHECK(listed);  // --help and docs/CONFIG.md list the key's described choices
  test::TempDir t("hello_mode");
  const auto out = t / "run";
  {
    RunContext ctx(cmd.name, config::resolve(cmd.sections, {}, {"sim.mode=hello", "run.out_dir=" + out.string()}));
    CHECK(execute_command(cmd, ctx) == 0);
  }
  Json summary = Json::parse(test::read_text(out / "summary.json"));
  CHECK(summary["greeting"].as_string() == "hello from simulate");
  CHECK_THROWS_AS(config::resolve(cmd.sections, {}, {"sim.mode=helo"}), ConfigError);  // not a mode
}
