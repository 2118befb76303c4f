#pragma once
#include <vector>

#include "core/runtime/command.hpp"

namespace mlsys::app {

// The subcommand table: one entry per system, in the order `mlsys --help` lists them.
const std::vector<const CommandSpec*>& commands();
const CommandSpec* find_command(const std::string& name);

}  // namespace mlsys::app
