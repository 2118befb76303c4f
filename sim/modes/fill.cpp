// `mlsys simulate fill`: the FGD paper's fragmentation experiment.
#include "sim/modes/common.hpp"

#include <fmt/format.h>

#include "sim/run/fill.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {
namespace {

// The FGD paper's fragmentation experiment: pods placed until the cluster is full, per placer
// (sim.compare.placers, else sim.placer), one placer per thread.
void fill_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  const auto& f = ctx.get(fill_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  std::vector<std::string> placers = o.compare_placers;
  if (placers.empty()) placers.push_back(o.engine.placer);
  std::vector<FillCurve> curves(placers.size());
  std::vector<std::exception_ptr> errors;
  auto t0 = std::chrono::steady_clock::now();
  const size_t workers = run_parallel(ctx, placers.size(), "simulate fill", "placers", errors,
                                      [&](size_t i) { curves[i] = fill_replay(jobs, o, f, placers[i], ctx.seed()); });
  double wall = wall_since(t0);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);  // as thrown: a ConfigError keeps exit code 2
  ctx.write_table("fill.csv", fill_table(curves));
  Table shown = fill_report(curves, f);
  ctx.write_text("fill.txt", shown.to_text());
  if (o.plots) {
    ctx.write_text("unallocated.svg", fill_svg(curves, "unallocated", ctx.figure_size()));
    ctx.write_text("fill_fragmentation.svg", fill_svg(curves, "frag", ctx.figure_size()));
  }
  Json runs = Json::array();
  for (const auto& c : curves) {
    Json j = Json::object();
    j["placer"] = c.placer;
    j["total_gpus"] = c.total_gpus;
    j["repeats"] = c.repeats;
    j["pods"] = c.pods;
    j["first_failure_pct"] = c.first_failure_pct;
    const FillPoint last = c.points.empty() ? FillPoint{} : c.points.back();
    j["arrived_pct"] = last.arrived_pct;
    j["allocated_pct"] = last.allocated_pct;
    j["unallocated_gpus"] = last.unallocated_gpus;
    j["failed_pods"] = last.failed_pods;
    j["frag_gpus"] = last.frag_gpus;
    runs.push_back(j);
  }
  ctx.summary()["fill"] = runs;
  ctx.say("trace: " + source);
  ctx.say(fmt::format("fill: order {}, up to {}% of GPU capacity arrived, {} repeat(s); unallocated GPUs in % of capacity",
                      f.order, format_number(f.max_arrived_pct), f.repeats));
  ctx.say(shown.to_text());
  ctx.say(fmt::format("{} placers on {} threads in {:.2f} s", placers.size(), workers, wall));
}


const bool registered = add_command_mode(
    "simulate", {"fill", "place pods until the cluster is full and report stranded GPUs (FGD paper's experiment, fill.*)", fill_mode});

}  // namespace
}  // namespace mlsys::sim
