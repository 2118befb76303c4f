#pragma once
#include "core/runtime/command.hpp"

namespace mlsys::dataopt {

// `mlsys coopt`: sections, modes and the run function.
const CommandSpec& coopt_command();

}  // namespace mlsys::dataopt
