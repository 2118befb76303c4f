// `mlsys simulate compare`: every configuration of the sweep on the same trace, side by side.
#include "sim/modes/common.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/util/error.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {
namespace {

std::vector<RunConfig> sweep(const SimOptions& o) {
  auto or_one = [](auto list, auto one) {
    if (list.empty()) list.push_back(one);
    return list;
  };
  std::vector<RunConfig> out;
  for (const auto& p : or_one(o.compare_policies, o.engine.policy))
    for (const auto& pl : or_one(o.compare_placers, o.engine.placer))
      for (const auto& e : or_one(o.compare_estimators, o.estimator))
        for (double l : or_one(o.compare_load_factors, o.load_factor))
          for (double s : or_one(o.compare_cluster_scales, o.cluster.scale))
            for (const auto& rp : or_one(o.compare_retry_policies, o.retry.policy)) out.push_back(RunConfig{p, pl, e, l, s, rp});
  return out;
}

void compare_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  auto configs = sweep(o);
  std::vector<SimulationResult> results(configs.size());
  std::vector<std::exception_ptr> errors;
  auto t0 = std::chrono::steady_clock::now();
  const size_t workers = run_parallel(ctx, configs.size(), "simulate compare", "configs", errors,
                                      [&](size_t i) { results[i] = simulate(jobs, o, configs[i], ctx.seed()); });
  double wall = wall_since(t0);
  for (size_t i = 0; i < configs.size(); ++i) {
    if (!errors[i]) continue;
    try {
      std::rethrow_exception(errors[i]);
    } catch (const std::exception& e) {
      throw Error("configuration " + configs[i].label() + ": " + e.what());
    }
  }
  std::vector<Metrics> metrics(results.size());
  for (size_t i = 0; i < results.size(); ++i) metrics[i] = compute_metrics(results[i]);
  Table table = summary_table(results, metrics);
  ctx.write_table("compare.csv", table);
  Json runs = Json::array();
  for (size_t i = 0; i < results.size(); ++i) runs.push_back(metrics_json(metrics[i], results[i]));
  ctx.summary()["runs"] = runs;
  if (o.plots) write_plots(ctx, results, metrics);
  // The side-by-side table: the columns a reader compares first.
  // With retries in the sweep, also what failures cost.
  const bool retries = std::any_of(results.begin(), results.end(), [](const auto& r) { return r.cfg.retry_policy != "none"; });
  std::vector<std::string> cols = {"config", "avg_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "util", "frag_gpus", "preempt", "migr"};
  if (retries) cols.insert(cols.end(), {"retries", "recovered", "abandoned", "wasted_gpu_h"});
  Table shown(cols);
  shown.set_precision(2);
  for (size_t i = 0; i < results.size(); ++i) {
    const SimulationResult& r = results[i];
    const Metrics& m = metrics[i];
    std::vector<Table::Cell> row = {r.cfg.label(), m.jct.avg, m.jct.p99, m.queue.avg, m.makespan, m.utilization,
                                    m.avg_fgd > 0 ? m.avg_fgd : m.avg_frag_gpus, m.preemptions, m.migrations};
    if (retries) {
      const FailureMetrics& f = m.failures;
      row.insert(row.end(), {f.retries, f.recovered, f.abandoned, f.wasted_gpu_hours});
    }
    shown.add_row(std::move(row));
  }
  ctx.write_text("compare.txt", shown.to_text());
  ctx.say("trace: " + source);
  ctx.say("cluster: " + (results.empty() ? std::string() : results[0].cluster));
  ctx.say(shown.to_text());
  ctx.say(fmt::format("{} configurations on {} threads in {:.2f} s", configs.size(), workers, wall));
}


const bool registered = add_command_mode(
    "simulate", {"compare", "sweep policies x placers x estimators x loads x scales x retry policies (sim.compare.*)", compare_mode});

}  // namespace
}  // namespace mlsys::sim
