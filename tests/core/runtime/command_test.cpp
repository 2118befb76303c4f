// A command's mode table: filled by each mode's own file, feeding choices and dispatch.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "core/runtime/command.hpp"

using namespace mlsys;

namespace {

// Registered the way a mode's file registers itself; names out of order on purpose.
const bool beta_registered = add_command_mode("test-cmd", {"beta", "second mode", [](RunContext&) {}});
const bool alpha_registered = add_command_mode("test-cmd", {"alpha", "first mode", [](RunContext&) {}});

}  // namespace

TEST_CASE("modes registered from separate places form one table sorted by name") {
  REQUIRE(beta_registered);
  REQUIRE(alpha_registered);
  CommandSpec spec;
  spec.name = "test-cmd";
  spec.modes = command_modes("test-cmd");
  CHECK(spec.mode_names() == std::vector<std::string>{"alpha", "beta"});
  auto choices = mode_choices(spec);
  REQUIRE(choices.size() == 2);
  CHECK(choices[1].name == "beta");
  CHECK(choices[1].description == "second mode");
  CHECK(static_cast<bool>(spec.modes[1].run));
  CHECK(command_modes("no-such-command").empty());
}

TEST_CASE("an options file reads a command's mode choices from the mode table by the command's name") {
  auto by_name = mode_choices("test-cmd");
  REQUIRE(by_name.size() == 2);
  CHECK(by_name[0].name == "alpha");
  CHECK(by_name[0].description == "first mode");
  CHECK(by_name[1].name == "beta");
  CHECK(mode_choices("no-such-command").empty());
}

TEST_CASE("a mode registered twice is a programming error") {
  CHECK_THROWS_AS(add_command_mode("test-cmd", {"alpha", "again", [](RunContext&) {}}), std::logic_error);
}
