#pragma once
#include "core/runtime/command.hpp"

namespace mlsys::sim {

// `mlsys simulate`: sections, modes and the run function.
const CommandSpec& simulate_command();

}  // namespace mlsys::sim
