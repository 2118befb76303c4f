#pragma once
// What a subcommand is: its config sections, optional mode words and flag aliases, and the
// function that runs it. Each system library defines its own CommandSpec; apps/mlsys only lists
// them in a table.
#include <functional>
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys {

class RunContext;

// A command-line flag that is shorthand for a config key, e.g. --lenient -> sim.trace.lenient=true.
struct FlagAlias {
  std::string flag;        // without dashes: "lenient"
  std::string config_key;  // "sim.trace.lenient"
  bool takes_value;        // false: sets the key to true
  std::string help;
};

struct CommandSpec {
  std::string name;     // "simulate"
  std::string summary;  // one line for `mlsys --help`
  std::string usage_notes;  // extra lines for `mlsys <name> --help` (examples)
  // All sections this command reads, common ones (run, comm, device) included.
  std::vector<const config::SectionBase*> sections;
  // Optional first positional word selecting a mode, stored in mode_key (e.g. "sim.mode").
  std::vector<std::string> modes;
  std::string mode_key;
  std::vector<FlagAlias> flags;
  // Runs the command. Throw mlsys::Error (exit 1) or ConfigError (exit 2) on failure.
  std::function<void(RunContext&)> run;
};

}  // namespace mlsys
