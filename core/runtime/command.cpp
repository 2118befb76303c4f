#include "core/runtime/command.hpp"

#include <cstdio>
#include <map>
#include <stdexcept>

#include "core/runtime/run_context.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys {
namespace {

// command -> mode name -> mode.
std::map<std::string, std::map<std::string, CommandMode>>& mode_tables() {
  static std::map<std::string, std::map<std::string, CommandMode>> tables;
  return tables;
}

}  // namespace

bool add_command_mode(const std::string& command, CommandMode mode) {
  auto& table = mode_tables()[command];
  if (table.count(mode.name)) throw std::logic_error("mode '" + mode.name + "' of `" + command + "` registered twice");
  std::string name = mode.name;
  table.emplace(std::move(name), std::move(mode));
  return true;
}

std::vector<CommandMode> command_modes(const std::string& command) {
  std::vector<CommandMode> out;
  auto it = mode_tables().find(command);
  if (it == mode_tables().end()) return out;
  for (const auto& [name, mode] : it->second) out.push_back(mode);
  return out;
}

std::vector<std::string> CommandSpec::mode_names() const {
  std::vector<std::string> out;
  for (const auto& m : modes) out.push_back(m.name);
  return out;
}

namespace {
std::vector<config::Choice> choices_of(const std::vector<CommandMode>& modes) {
  std::vector<config::Choice> out;
  for (const auto& m : modes) out.push_back({m.name, m.description});
  return out;
}
}  // namespace

std::vector<config::Choice> mode_choices(const std::string& command) { return choices_of(command_modes(command)); }

std::vector<config::Choice> mode_choices(const CommandSpec& cmd) { return choices_of(cmd.modes); }

void run_command(const CommandSpec& cmd, RunContext& ctx) {
  if (cmd.modes.empty()) {
    cmd.run(ctx);
    return;
  }
  const std::string mode = ctx.config().scalar(cmd.mode_key);
  for (const auto& m : cmd.modes)
    if (m.name == mode) {
      m.run(ctx);
      return;
    }
  // The mode key's choices come from the same table, so the resolver has already refused this.
  throw ConfigError("unknown " + cmd.mode_key + " '" + mode + "'; modes: " + join(cmd.mode_names(), ", "));
}

int execute_command(const CommandSpec& cmd, RunContext& ctx) {
  try {
    try {
      run_command(cmd, ctx);
    } catch (const std::bad_alloc&) {
      // No reader named the input (see mlsys::reading); say what is known and where to look.
      throw Error("out of memory in `mlsys " + cmd.name + "`: the inputs or the configuration need more memory " +
                  "than this machine has; run.log in " + ctx.out_dir().string() + " shows the last step reached");
    }
  } catch (const std::exception& e) {
    // After SIGINT/SIGTERM any failure is the stop itself (or a consequence of it, e.g. a peer
    // rank that left): the run is interrupted, not failed.
    if (RunContext::stop_requested()) {
      ctx.finish_interrupted(e.what());
      std::fprintf(stderr, "mlsys: run stopped by %s (%s); partial results in %s\n", interrupt_signal_name().c_str(),
                   e.what(), ctx.out_dir().c_str());
      return kExitInterrupted;
    }
    ctx.fail(e.what());
    throw;
  }
  ctx.finish();
  if (RunContext::stop_requested()) return kExitInterrupted;
  if (ctx.incomplete()) {
    std::fprintf(stderr,
                 "mlsys: error: the run is incomplete, not written: %s (summary.json: run.status = incomplete, "
                 "run.missing); free space or fix the folder %s and run again\n",
                 ctx.missing_text().c_str(), ctx.out_dir().c_str());
    return 1;
  }
  return 0;
}

}  // namespace mlsys
