#include "dataopt/command.hpp"

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"

namespace mlsys::dataopt {

// Placeholder until the module lands; replaced by the module's owner.
const CommandSpec& coopt_command() {
  static const CommandSpec spec{
      "coopt", "(not implemented yet)", "", {&run_section()}, {}, "", {},
      [](RunContext&) { throw Error("mlsys coopt is not implemented yet"); }};
  return spec;
}

}  // namespace mlsys::dataopt
