#pragma once
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "core/config/resolve.hpp"
#include "core/runtime/command.hpp"

namespace mlsys::app {

// `mlsys <command> [MODE] [CONFIG.yaml ...] [--set k=v ...] [--out DIR] [--seed N] [-v|-q ...] [flags]`
struct Invocation {
  std::vector<std::string> files;
  std::vector<std::string> sets;  // in precedence order (later wins)
  int verbosity = 0;              // +1 per -v, -1 per -q: steps from the configured run.log_level
  bool help = false;
};

// The options in `desc` plus any number of positional words. Every command and subcommand parses
// its arguments here, so an unknown option is a UsageError (exit 2) everywhere, with the nearest
// known option suggested, naming `help_for` ("mlsys simulate --help").
struct ParsedArgs {
  boost::program_options::variables_map options;
  std::vector<std::string> positional;
  std::vector<std::string> given;  // long names of the options given, once per occurrence (-vv: verbose twice)
  int count(const std::string& long_name) const;
};
ParsedArgs parse_args(const boost::program_options::options_description& desc, const std::vector<std::string>& args,
                      const std::string& help_for);
// -v/-q for a command's option list: repeatable (-vv, -v -v, -qq), counted by ParsedArgs::count.
void add_verbosity_options(boost::program_options::options_description& desc);
// ParsedArgs's -v count less its -q count.
int verbosity_of(const ParsedArgs& parsed);

// The options `mlsys <command>` takes (common ones and the command's flag aliases).
boost::program_options::options_description command_options(const CommandSpec& cmd);
// Parses the arguments after the command name. Throws UsageError.
Invocation parse_command_args(const CommandSpec& cmd, const std::vector<std::string>& args);
std::string command_help(const CommandSpec& cmd);

// Resolves defaults < files < sets, then moves run.log_level `verbosity` steps towards debug
// (negative: towards quiet), clamped to its choices, so -v/-q act on whatever level files and
// --set chose. `sections` must include the run section when verbosity is not 0.
config::ResolvedConfig resolve_invocation(const std::vector<const config::SectionBase*>& sections,
                                          const std::vector<std::string>& files, std::vector<std::string> sets,
                                          int verbosity);

}  // namespace mlsys::app
