// `mlsys simulate generate`: a synthetic trace written as a native CSV, streamed.
#include "sim/modes/common.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "core/util/error.hpp"

namespace mlsys::sim {
namespace {

void generate_mode(RunContext& ctx) {
  const auto& g = ctx.get(workload::tracegen_section());
  std::string path = g.out.empty() ? ctx.path("trace.csv").string() : g.out;
  // An explicit output file is the user's: replaced only when asked to.
  if (!g.out.empty() && std::filesystem::exists(g.out) && !ctx.run().overwrite)
    throw ConfigError("tracegen.out = '" + g.out + "' already exists; choose another path, or pass --overwrite to replace it");
  std::string durations;
  int64_t n = workload::generate_trace_file(g, ctx.seed(), path, &durations);
  ctx.summary()["generated_jobs"] = n;
  ctx.summary()["trace_file"] = path;
  ctx.summary()["durations"] = durations;
  record_runtimes_input(ctx, g, durations);
  ctx.say(fmt::format("wrote {} jobs to {}", n, path));
}


const bool registered = add_command_mode(
    "simulate", {"generate", "write a synthetic trace (tracegen.*) to tracegen.out or the run folder", generate_mode});
const bool registered_alias = add_command_mode("simulate", {"tracegen", "the same as generate", generate_mode});

}  // namespace
}  // namespace mlsys::sim
