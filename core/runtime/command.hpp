#pragma once
// What a subcommand is: its config sections, optional mode words and flag aliases, and the
// function that runs it. Each system library defines its own CommandSpec; apps/mlsys only lists
// them in a table.
#include <functional>
#include <string>
#include <vector>

#include "core/config/choice.hpp"
#include "core/config/schema.hpp"

namespace mlsys {

class RunContext;

// A command-line flag that is shorthand for a config key, e.g. --lenient -> sim.trace.lenient=true.
struct FlagAlias {
  std::string flag;        // without dashes: "lenient"
  std::string config_key;  // "sim.trace.lenient"
  bool takes_value;        // false: sets the key to true
  std::string help;
  std::vector<std::string> implies = {};  // further "key=value" sets the flag stands for (--graph P: source=file)
};

// One mode of a command: the word users type (`mlsys simulate compare`), what it does (shown in
// --help and docs/CONFIG.md as the mode key's choices) and the function that runs it. A command's
// modes are one table that feeds the mode key's choices, the help text and dispatch. Each mode
// registers itself in the file that implements it:
//   const bool registered = add_command_mode("simulate", {"stats", "describe the trace", stats_mode});
// and the command's spec takes the table with `command_modes("simulate")`.
struct CommandMode {
  std::string name;
  std::string description;
  std::function<void(RunContext&)> run;
};

// Adds a mode to `command`'s table; returns true (for `static const bool registered = ...`).
// A name registered twice is a programming error (std::logic_error).
bool add_command_mode(const std::string& command, CommandMode mode);
// The modes registered for `command`, sorted by name so listings do not depend on link order.
std::vector<CommandMode> command_modes(const std::string& command);

struct CommandSpec {
  std::string name;     // "simulate"
  std::string summary;  // one line for `mlsys --help`
  std::string usage_notes;  // extra lines for `mlsys <name> --help` (examples)
  // All sections this command reads, common ones (run, comm, device) included.
  std::vector<const config::SectionBase*> sections;
  // Optional first positional word selecting a mode, stored in mode_key (e.g. "sim.mode"); the key's
  // declared default picks the mode when none is given.
  std::vector<CommandMode> modes;
  std::string mode_key;
  std::vector<FlagAlias> flags;
  // Runs a command without modes. Throw mlsys::Error (exit 1) or ConfigError (exit 2) on failure.
  std::function<void(RunContext&)> run;

  std::vector<std::string> mode_names() const;
};

// The modes as config choices. A system's options file reads them from the mode table by command
// name, so it needs neither the command's header nor its spec:
//   s.field("mode", ...).choices_described([] { return mode_choices("simulate"); })
std::vector<config::Choice> mode_choices(const std::string& command);
std::vector<config::Choice> mode_choices(const CommandSpec& cmd);
// Runs the command: the mode named by mode_key's resolved value, or `run` when it has no modes.
void run_command(const CommandSpec& cmd, RunContext& ctx);
// run_command inside the run's frame: on success the context finishes (summary.json, the printed
// summary) and 0 is returned; on failure the error goes into run.log, the folder is left
// reusable, and the exception propagates for the app to map to its exit code.
int execute_command(const CommandSpec& cmd, RunContext& ctx);

}  // namespace mlsys
