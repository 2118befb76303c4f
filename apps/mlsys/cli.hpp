#pragma once
#include <boost/program_options.hpp>

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

// The options in `desc` plus any number of positional words. Throws UsageError naming `help_for`
// ("mlsys simulate --help") on a parse error.
struct ParsedArgs {
  boost::program_options::variables_map options;
  std::vector<std::string> positional;
};
ParsedArgs parse_args(const boost::program_options::options_description& desc, const std::vector<std::string>& args,
                      const std::string& help_for);

// Parses the arguments after the command name. Throws UsageError.
Invocation parse_command_args(const CommandSpec& cmd, const std::vector<std::string>& args);
std::string command_help(const CommandSpec& cmd);

}  // namespace mlsys::app
