// `mlsys simulate` (run): one simulation, its per-job table, time series and summary.
#include "sim/modes/common.hpp"

#include <ctime>

#include <fmt/format.h>

#include "sim/run/sim_options.hpp"

namespace mlsys::sim {
namespace {

void run_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  std::string source;
  auto jobs = load_jobs(ctx, source);
  const auto n = static_cast<int64_t>(jobs.size());
  auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();  // process CPU time: the rate on a machine others load
  SimulationResult r;
  {
    auto progress = phase_progress(ctx, "simulate", n, "jobs");
    r = simulate(jobs, o, base_config(o), ctx.seed(), [&](int64_t done) {
      if (progress) progress->update(static_cast<uint64_t>(done));
    });
  }
  double wall = wall_since(t0);
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::vector<Metrics> m(1);
  m[0] = compute_metrics(r);
  ctx.summary()["simulation"] = metrics_json(m[0], r);
  if (o.per_job_csv && ctx.primary()) {
    auto progress = phase_progress(ctx, "write jobs.csv", n, "jobs");
    write_jobs_csv(ctx.path("jobs.csv"), jobs, r, [&](size_t done) {
      if (progress) progress->update(done);
    });
  }
  ctx.write_table("timeseries.csv", timeseries_table(r));
  ctx.write_table("by_vc.csv", by_vc_table(r));
  std::vector<SimulationResult> runs(1);
  runs[0] = std::move(r);
  ctx.write_table("summary.csv", summary_table(runs, m));
  if (o.plots) write_plots(ctx, runs, m);
  const SimulationResult& res = runs[0];
  ctx.say("trace: " + source);
  ctx.say("cluster: " + res.cluster);
  ctx.say(fmt::format("{}: {} jobs, avg JCT {:.0f} s (p50 {:.0f}, p99 {:.0f}), avg queue {:.0f} s, makespan {:.0f} s, "
                      "utilization {:.1f}%, {} preemptions, {} migrations",
                      res.cfg.label(), m[0].jobs, m[0].jct.avg, m[0].jct.p50, m[0].jct.p99, m[0].queue.avg, m[0].makespan,
                      100 * m[0].utilization, m[0].preemptions, m[0].migrations));
  if (const FailureMetrics& f = m[0].failures; f.failed_jobs > 0)
    ctx.say(fmt::format("failures (retry {}): {} failed jobs, {} failed attempts, {} retries, {} recovered, {} abandoned "
                        "({} do_not_retry, {} out of retries), {:.1f} GPU-hours wasted",
                        res.cfg.retry_policy, f.failed_jobs, f.failed_attempts, f.retries, f.recovered, f.abandoned,
                        f.not_retried, f.retries_exhausted, f.wasted_gpu_hours));
  const auto jobs_done = static_cast<double>(m[0].jobs);
  ctx.say(fmt::format("simulated in {:.3f} s wall ({:.0f} jobs/s), {:.3f} s CPU ({:.0f} jobs/s)", wall,
                      wall > 0 ? jobs_done / wall : 0, cpu, cpu > 0 ? jobs_done / cpu : 0));
}


const bool registered = add_command_mode(
    "simulate", {"run", "one simulation of the trace (or a generated one) under sim.policy and sim.placer", run_mode});

}  // namespace
}  // namespace mlsys::sim
