#pragma once
#include <string>
#include <vector>

#include "core/runtime/command.hpp"

namespace mlsys::app {

// `mlsys <command> [CONFIG.yaml ...] [--set k=v ...] [--out DIR] [--seed N] [-v|-q] [flags]`
struct Invocation {
  std::vector<std::string> files;
  std::vector<std::string> sets;  // in precedence order (later wins)
  bool help = false;
};

// Parses the arguments after the command name. Throws UsageError.
Invocation parse_command_args(const CommandSpec& cmd, const std::vector<std::string>& args);
std::string command_help(const CommandSpec& cmd);

}  // namespace mlsys::app
