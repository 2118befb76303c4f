#include "core/runtime/command.hpp"

#include <cstdio>

#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

std::vector<std::string> CommandSpec::mode_names() const {
  std::vector<std::string> out;
  for (const auto& m : modes) out.push_back(m.name);
  return out;
}

std::vector<config::Choice> mode_choices(const CommandSpec& cmd) {
  std::vector<config::Choice> out;
  for (const auto& m : cmd.modes) out.push_back({m.name, m.description});
  return out;
}

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
      std::fprintf(stderr, "mlsys: run stopped by a signal (%s); partial results in %s\n", e.what(),
                   ctx.out_dir().c_str());
      return kExitInterrupted;
    }
    ctx.fail(e.what());
    throw;
  }
  ctx.finish();
  return RunContext::stop_requested() ? kExitInterrupted : 0;
}

}  // namespace mlsys
