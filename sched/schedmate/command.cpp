#include "sched/schedmate/command.hpp"

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"

namespace mlsys::schedmate {

// Placeholder until the module lands; replaced by the module's owner.
const CommandSpec& schedmate_command() {
  static const CommandSpec spec{
      "schedmate", "(not implemented yet)", "", {&run_section()}, {}, "", {},
      [](RunContext&) { throw Error("mlsys schedmate is not implemented yet"); }};
  return spec;
}

}  // namespace mlsys::schedmate
