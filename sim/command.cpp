#include "sim/command.hpp"

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"

namespace mlsys::sim {

// Placeholder until the module lands; replaced by the module's owner.
const CommandSpec& simulate_command() {
  static const CommandSpec spec{
      "simulate", "(not implemented yet)", "", {&run_section()}, {}, "", {},
      [](RunContext&) { throw Error("mlsys simulate is not implemented yet"); }};
  return spec;
}

}  // namespace mlsys::sim
