#pragma once
// Every word `mlsys` takes first: the system commands (commands.hpp) and the tools around them
// (config, sweep, help, version, completion, man). `mlsys --help`, `mlsys help <word>`, the shell
// completion scripts and the man page are all generated from this one table.
#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace mlsys::app {

struct CliEntry {
  std::string name;
  std::string synopsis;  // what follows `mlsys <name>`
  std::string summary;   // one line
  // The words the first argument after the name may be (a command's modes, a tool's subcommands).
  std::vector<std::string> words;
  // Options it takes; value options whose values are a fixed list name them in value_words.
  std::function<boost::program_options::options_description()> options;
  std::vector<std::pair<std::string, std::vector<std::string>>> value_words;
  std::vector<std::string> keys;  // config keys `--set` takes (empty: no --set)
  std::function<std::string()> help;
  std::function<int(const std::vector<std::string>& args)> run;  // the exit code
  bool system = false;  // one of the four systems (listed under "Commands:"), else a tool ("Tools:")
};

const std::vector<CliEntry>& cli_entries();
// The entry named `name`; otherwise a UsageError naming the nearest entry and all of them.
const CliEntry& require_entry(const std::string& name);
// `word` when it is one of `allowed`; otherwise a UsageError: "unknown <what> 'x' (did you mean
// 'y'?); one of: ...".
const std::string& require_word(const std::string& word, const std::vector<std::string>& allowed,
                                const std::string& what);
std::string main_help();

}  // namespace mlsys::app
