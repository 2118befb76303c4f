#include "sim/command.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/log/progress.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "sim/helios/helios_run.hpp"
#include "sim/run/sim_options.hpp"
#include "sim/run/simulation.hpp"
#include "sim/traces/generator.hpp"
#include "sim/traces/native_csv.hpp"
#include "sim/traces/read_trace.hpp"
#include "sim/traces/trace_stats.hpp"

namespace mlsys::sim {
namespace {

// The trace: trace.path when set, else the generator (the quickstart demo).
std::vector<JobSpec> load_jobs(RunContext& ctx, std::string& source) {
  const auto& t = ctx.get(trace_section());
  if (t.path.empty() && t.paths.empty()) {
    auto jobs = generate_trace(ctx.get(tracegen_section()), ctx.seed());
    finalize_jobs(jobs);
    source = "generated (" + std::to_string(jobs.size()) + " jobs, seed " + std::to_string(ctx.seed()) + ")";
    return jobs;
  }
  TraceLoad load = read_trace(t);
  source = load.summary.to_line();
  ctx.summary()["trace"] = load.summary.to_json();
  return std::move(load.jobs);
}

double wall_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void write_plots(RunContext& ctx, const std::vector<SimulationResult>& runs) {
  ctx.write_text("jct_cdf.svg", jct_cdf_svg(runs));
  ctx.write_text("utilization.svg", timeseries_svg(runs, "util"));
  ctx.write_text("queue_length.svg", timeseries_svg(runs, "queue"));
  ctx.write_text("fragmentation.svg", timeseries_svg(runs, "frag"));
}

void run_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  auto t0 = std::chrono::steady_clock::now();
  SimulationResult r = simulate(jobs, o, base_config(o), ctx.seed());
  double wall = wall_since(t0);
  Metrics m = compute_metrics(r);
  ctx.summary()["simulation"] = metrics_json(m, r);
  if (o.per_job_csv) ctx.write_table("jobs.csv", jobs_table(jobs, r));
  ctx.write_table("timeseries.csv", timeseries_table(r));
  ctx.write_table("by_vc.csv", by_vc_table(r));
  ctx.write_table("summary.csv", summary_table({r}));
  if (o.plots) write_plots(ctx, {r});
  ctx.say("trace: " + source);
  ctx.say("cluster: " + r.cluster);
  ctx.say(fmt::format("{}: {} jobs, avg JCT {:.0f} s (p50 {:.0f}, p99 {:.0f}), avg queue {:.0f} s, makespan {:.0f} s, "
                      "utilization {:.1f}%, {} preemptions, {} migrations",
                      r.cfg.label(), m.jobs, m.jct.avg, m.jct.p50, m.jct.p99, m.queue.avg, m.makespan,
                      100 * m.utilization, m.preemptions, m.migrations));
  ctx.say(fmt::format("simulated in {:.3f} s ({:.0f} jobs/s)", wall, wall > 0 ? static_cast<double>(m.jobs) / wall : 0));
}

std::vector<RunConfig> sweep(const SimOptions& o) {
  auto or_one = [](auto list, auto one) {
    if (list.empty()) list.push_back(one);
    return list;
  };
  std::vector<RunConfig> out;
  for (const auto& p : or_one(o.compare_policies, o.policy))
    for (const auto& pl : or_one(o.compare_placers, o.placer))
      for (const auto& e : or_one(o.compare_estimators, o.estimator))
        for (double l : or_one(o.compare_load_factors, o.load_factor))
          for (double s : or_one(o.compare_cluster_scales, o.cluster_scale)) out.push_back(RunConfig{p, pl, e, l, s});
  return out;
}

void compare_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  auto configs = sweep(o);
  std::vector<SimulationResult> results(configs.size());
  std::vector<std::string> errors(configs.size());
  std::atomic<size_t> next{0}, done{0};
  const size_t workers = std::max<size_t>(1, std::min<size_t>(configs.size(), static_cast<size_t>(std::max(1, ctx.threads()))));
  Progress progress("simulate compare", configs.size(), "configs");
  std::mutex mu;
  auto t0 = std::chrono::steady_clock::now();
  auto work = [&] {
    for (size_t i = next++; i < configs.size(); i = next++) {
      try {
        results[i] = simulate(jobs, o, configs[i], ctx.seed());
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
      std::lock_guard<std::mutex> lock(mu);
      progress.update(++done);
    }
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  progress.finish();
  double wall = wall_since(t0);
  for (size_t i = 0; i < configs.size(); ++i)
    if (!errors[i].empty()) throw Error("configuration " + configs[i].label() + ": " + errors[i]);
  Table table = summary_table(results);
  ctx.write_table("compare.csv", table);
  Json runs = Json::array();
  for (const auto& r : results) runs.push_back(metrics_json(compute_metrics(r), r));
  ctx.summary()["runs"] = runs;
  if (o.plots) write_plots(ctx, results);
  // The side-by-side table: the columns a reader compares first.
  Table shown({"config", "avg_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "util", "frag_gpus", "preempt", "migr"});
  shown.set_precision(2);
  for (const auto& r : results) {
    Metrics m = compute_metrics(r);
    shown.add_row({r.cfg.label(), m.jct.avg, m.jct.p99, m.queue.avg, m.makespan, m.utilization, m.avg_fgd > 0 ? m.avg_fgd : m.avg_frag_gpus,
                   m.preemptions, m.migrations});
  }
  ctx.write_text("compare.txt", shown.to_text());
  ctx.say("trace: " + source);
  ctx.say("cluster: " + (results.empty() ? std::string() : results[0].cluster));
  ctx.say(shown.to_text());
  ctx.say(fmt::format("{} configurations on {} threads in {:.2f} s", configs.size(), workers, wall));
}

void stats_mode(RunContext& ctx) {
  std::string source;
  auto jobs = load_jobs(ctx, source);
  TraceStats st = compute_trace_stats(jobs);
  for (const auto& [name, table] : st.to_tables()) ctx.write_table(name + ".csv", table);
  ctx.summary()["stats"] = st.to_json();
  ctx.say("trace: " + source);
  ctx.say(fmt::format("{} jobs, {:.0f} GPU-hours, {:.1f} arrivals/hour, median duration {:.0f} s, mean GPUs {:.2f}",
                      st.jobs, st.gpu_hours, st.arrivals_per_hour, st.duration_s.p50, st.num_gpus.mean));
}

void generate_mode(RunContext& ctx) {
  const auto& g = ctx.get(tracegen_section());
  std::string path = g.out.empty() ? ctx.path("trace.csv").string() : g.out;
  int64_t n = generate_trace_file(g, ctx.seed(), path);
  ctx.summary()["generated_jobs"] = n;
  ctx.summary()["trace_file"] = path;
  ctx.say(fmt::format("wrote {} jobs to {}", n, path));
}

void run(RunContext& ctx) {
  const auto& mode = ctx.get(sim_section()).mode;
  if (mode == "run") return run_mode(ctx);
  if (mode == "compare") return compare_mode(ctx);
  if (mode == "stats") return stats_mode(ctx);
  if (mode == "generate" || mode == "tracegen") return generate_mode(ctx);
  if (mode == "helios") return helios_mode(ctx);
  throw ConfigError("unknown sim.mode '" + mode + "'");
}

}  // namespace

const CommandSpec& simulate_command() {
  static const CommandSpec spec{
      "simulate",
      "AnalySIM: trace-driven simulator of a multi-tenant GPU cluster (policies, placers, Helios mode)",
      "  mlsys simulate                                  # quickstart: a small generated trace, FIFO\n"
      "  mlsys simulate compare configs/simulate/philly_gavel_policies.yaml\n"
      "  mlsys simulate compare configs/simulate/openb_placers.yaml\n"
      "  mlsys simulate stats --set trace.path=../shared/data/traces/tiresias/60_job.csv\n"
      "  mlsys simulate generate --set tracegen.jobs=100000\n"
      "  mlsys simulate helios                           # Helios compatibility mode on the shared reference inputs",
      {&run_section(), &sim_section(), &trace_section(), &tracegen_section()},
      {"run", "compare", "stats", "generate", "tracegen", "helios"},
      "sim.mode",
      {{"lenient", "trace.lenient", false, "Skip bad trace rows (counted) instead of failing"},
       {"policy", "sim.policy", true, "Scheduling policy"},
       {"placer", "sim.placer", true, "Placement policy"},
       {"trace", "trace.path", true, "Trace file or folder"}},
      run};
  return spec;
}

}  // namespace mlsys::sim
