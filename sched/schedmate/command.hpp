#pragma once
#include "core/runtime/command.hpp"

namespace mlsys::schedmate {

// `mlsys schedmate`: sections, modes and the run function.
const CommandSpec& schedmate_command();

}  // namespace mlsys::schedmate
