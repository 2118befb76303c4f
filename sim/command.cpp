#include "sim/command.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "core/log/progress.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/thread_pool.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "sched/workload/traces/trace_stats.hpp"
#include "sim/helios/helios_run.hpp"
#include "sim/run/fill.hpp"
#include "sim/run/sim_options.hpp"
#include "sim/run/simulation.hpp"

namespace mlsys::sim {
namespace {

// The trace: trace.path when set, else the generator (the quickstart demo).
std::vector<workload::JobSpec> load_jobs(RunContext& ctx, std::string& source) {
  const auto& t = ctx.get(workload::trace_section());
  if (t.path.empty() && t.paths.empty()) {
    auto jobs = workload::generate_trace(ctx.get(workload::tracegen_section()), ctx.seed());
    workload::finalize_jobs(jobs);
    source = "generated (" + std::to_string(jobs.size()) + " jobs, seed " + std::to_string(ctx.seed()) + ")";
    return jobs;
  }
  workload::TraceLoad load = workload::read_trace(t);
  source = load.summary.to_line();
  ctx.summary()["trace"] = load.summary.to_json();
  return std::move(load.jobs);
}

double wall_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs task(i) for every i < n on up to run.threads threads (core parallel_for) with a progress
// bar; errors[i] is what task i threw (null when it did not). Returns the number of threads used.
size_t run_parallel(RunContext& ctx, size_t n, const std::string& what, const std::string& unit,
                    std::vector<std::exception_ptr>& errors, const std::function<void(size_t)>& task) {
  Progress progress(what, n, unit);
  ParallelOptions po;
  po.threads = ctx.threads();
  po.collect_errors = true;
  po.on_done = [&](size_t done) { progress.update(done); };
  errors = parallel_for(n, po, task);
  progress.finish();
  return parallel_workers(n, ctx.threads());
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
  if (const FailureMetrics& f = m.failures; f.failed_jobs > 0)
    ctx.say(fmt::format("failures (retry {}): {} failed jobs, {} failed attempts, {} retries, {} recovered, {} abandoned "
                        "({} do_not_retry, {} out of retries), {:.1f} GPU-hours wasted",
                        r.cfg.retry_policy, f.failed_jobs, f.failed_attempts, f.retries, f.recovered, f.abandoned,
                        f.not_retried, f.retries_exhausted, f.wasted_gpu_hours));
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
  Table table = summary_table(results);
  ctx.write_table("compare.csv", table);
  Json runs = Json::array();
  for (const auto& r : results) runs.push_back(metrics_json(compute_metrics(r), r));
  ctx.summary()["runs"] = runs;
  if (o.plots) write_plots(ctx, results);
  // The side-by-side table: the columns a reader compares first.
  // With retries in the sweep, also what failures cost.
  const bool retries = std::any_of(results.begin(), results.end(), [](const auto& r) { return r.cfg.retry_policy != "none"; });
  std::vector<std::string> cols = {"config", "avg_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "util", "frag_gpus", "preempt", "migr"};
  if (retries) cols.insert(cols.end(), {"retries", "recovered", "abandoned", "wasted_gpu_h"});
  Table shown(cols);
  shown.set_precision(2);
  for (const auto& r : results) {
    Metrics m = compute_metrics(r);
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

// The FGD paper's fragmentation experiment: pods placed until the cluster is full, per placer
// (sim.compare.placers, else sim.placer), one placer per thread.
void fill_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  const auto& f = ctx.get(fill_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  std::vector<std::string> placers = o.compare_placers;
  if (placers.empty()) placers.push_back(o.placer);
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
    ctx.write_text("unallocated.svg", fill_svg(curves, "unallocated"));
    ctx.write_text("fill_fragmentation.svg", fill_svg(curves, "frag"));
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

void stats_mode(RunContext& ctx) {
  std::string source;
  auto jobs = load_jobs(ctx, source);
  workload::TraceStats st = workload::compute_trace_stats(jobs);
  for (const auto& [name, table] : st.to_tables()) ctx.write_table(name + ".csv", table);
  ctx.summary()["stats"] = st.to_json();
  ctx.say("trace: " + source);
  ctx.say(fmt::format("{} jobs, {:.0f} GPU-hours, {:.1f} arrivals/hour, median duration {:.0f} s, mean GPUs {:.2f}",
                      st.jobs, st.gpu_hours, st.arrivals_per_hour, st.duration_s.p50, st.num_gpus.mean));
}

void generate_mode(RunContext& ctx) {
  const auto& g = ctx.get(workload::tracegen_section());
  std::string path = g.out.empty() ? ctx.path("trace.csv").string() : g.out;
  int64_t n = workload::generate_trace_file(g, ctx.seed(), path);
  ctx.summary()["generated_jobs"] = n;
  ctx.summary()["trace_file"] = path;
  ctx.say(fmt::format("wrote {} jobs to {}", n, path));
}

}  // namespace

const CommandSpec& simulate_command() {
  static const CommandSpec spec{
      "simulate",
      "AnalySIM: trace-driven simulator of a multi-tenant GPU cluster (policies, placers, Helios mode)",
      "  mlsys simulate                                  # quickstart: a small generated trace, FIFO\n"
      "  mlsys simulate compare configs/simulate/philly_gavel_policies.yaml\n"
      "  mlsys simulate compare configs/simulate/openb_placers.yaml\n"
      "  mlsys simulate fill configs/simulate/openb_fill.yaml        # FGD paper: stranded GPUs as the cluster fills\n"
      "  mlsys simulate stats --set trace.path=../shared/data/traces/tiresias/60_job.csv\n"
      "  mlsys simulate generate --set tracegen.jobs=100000\n"
      "  mlsys simulate helios                           # Helios compatibility mode on the shared reference inputs",
      {&run_section(), &sim_section(), &workload::trace_section(), &workload::tracegen_section(), &fill_section()},
      {{"run", "one simulation of the trace (or a generated one) under sim.policy and sim.placer", run_mode},
       {"compare", "sweep policies x placers x estimators x loads x scales x retry policies (sim.compare.*)", compare_mode},
       {"stats", "statistics of the trace: sizes, durations, arrivals, per-VC counts", stats_mode},
       {"generate", "write a synthetic trace (tracegen.*) to tracegen.out or the run folder", generate_mode},
       {"tracegen", "the same as generate", generate_mode},
       {"helios", "Helios compatibility mode: the Helios simulator's semantics on Philly-style VC traces", helios_mode},
       {"fill", "place pods until the cluster is full and report stranded GPUs (FGD paper's experiment, fill.*)", fill_mode}},
      "sim.mode",
      {{"lenient", "trace.lenient", false, "Skip bad trace rows (counted) instead of failing"},
       {"policy", "sim.policy", true, "Scheduling policy"},
       {"placer", "sim.placer", true, "Placement policy"},
       {"trace", "trace.path", true, "Trace file or folder"}},
      {}};
  return spec;
}

}  // namespace mlsys::sim
