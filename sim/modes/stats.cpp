// `mlsys simulate stats`: what the trace holds.
#include "sim/modes/common.hpp"

#include <fmt/format.h>

#include "sched/workload/traces/trace_stats.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {
namespace {

void stats_mode(RunContext& ctx) {
  std::string source;
  auto jobs = load_jobs(ctx, source);
  workload::TraceStats st = workload::compute_trace_stats(jobs);
  for (const auto& [name, table] : st.to_tables()) ctx.write_table(name + ".csv", table);
  if (ctx.get(sim_section()).plots)
    for (const auto& [name, svg] : st.to_svgs(ctx.figure_size())) ctx.write_text(name, svg);
  ctx.summary()["stats"] = st.to_json();
  ctx.say("trace: " + source);
  ctx.say(fmt::format("{} jobs, {:.0f} GPU-hours, {:.1f} arrivals/hour, median duration {:.0f} s, mean GPUs {:.2f}",
                      st.jobs, st.gpu_hours, st.arrivals_per_hour, st.duration_s.p50, st.num_gpus.mean));
}


const bool registered = add_command_mode(
    "simulate", {"stats", "statistics of the trace: sizes, durations, arrivals, per-VC counts", stats_mode});

}  // namespace
}  // namespace mlsys::sim
