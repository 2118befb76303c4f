#include "sim/modes/common.hpp"

#include <algorithm>

#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"
#include "core/util/thread_pool.hpp"
#include "sched/workload/traces/read_trace.hpp"

namespace mlsys::sim {
namespace {

// The run record's inputs (summary.json "run.inputs": path, size, content hash) for a trace read
// from files: every trace file and every other file the read used (Gavel throughputs).
void record_trace_inputs(RunContext& ctx, const workload::TraceSummary& s) {
  for (size_t i = 0; i < s.files.size(); ++i)
    ctx.record_input(s.files.size() == 1 ? "trace" : "trace[" + std::to_string(i) + "]", s.files[i]);
  for (size_t i = 0; i < s.inputs.size(); ++i)
    ctx.record_input(s.inputs.size() == 1 ? "trace.throughputs" : "trace.inputs[" + std::to_string(i) + "]", s.inputs[i]);
}

}  // namespace

// A progress display for a phase of `total` items (quiet while the phase is short), or none when
// run.progress is off.
std::optional<Progress> phase_progress(const RunContext& ctx, const std::string& what, int64_t total,
                                       const std::string& unit) {
  std::optional<Progress> p;
  if (ctx.progress_enabled()) p.emplace(what, static_cast<uint64_t>(total), unit);
  return p;
}

// The generator's run-time distribution: the built-in Philly fit or the runtimes CSV it read.
void record_runtimes_input(RunContext& ctx, const workload::TracegenOptions& g, const std::string& source) {
  if (g.runtimes_file == "builtin") ctx.record_builtin_input("tracegen.runtimes_file", source);
  else ctx.record_input("tracegen.runtimes_file", g.runtimes_file);
}

// The trace: trace.path when set, else the generator (the quickstart demo).
std::vector<workload::JobSpec> load_jobs(RunContext& ctx, std::string& source) {
  const auto& t = ctx.get(workload::trace_section());
  if (t.path.empty() && t.paths.empty()) {
    const auto& g = ctx.get(workload::tracegen_section());
    LongLoop loop("generate trace", static_cast<uint64_t>(g.jobs), "jobs");
    workload::TraceGenerator gen(g, ctx.seed());
    std::vector<workload::JobSpec> jobs;
    jobs.reserve(static_cast<size_t>(std::min<int64_t>(g.jobs, int64_t{1} << 27)));
    workload::JobSpec j;
    while (gen.next(j)) {
      jobs.push_back(std::move(j));
      loop.tick(jobs.size());
    }
    loop.finish(jobs.size());
    workload::finalize_jobs(jobs);
    Json rec = Json::object();  // what the generated trace came from
    rec["jobs"] = static_cast<int64_t>(jobs.size());
    rec["durations"] = gen.duration_source();
    ctx.summary()["tracegen"] = rec;
    record_runtimes_input(ctx, g, gen.duration_source());
    source = "generated (" + std::to_string(jobs.size()) + " jobs, seed " + std::to_string(ctx.seed()) + ")";
    return jobs;
  }
  workload::TraceLoad load = workload::read_trace(t);
  record_trace_inputs(ctx, load.summary);
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

void write_plots(RunContext& ctx, const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics) {
  const FigureSize size = ctx.figure_size();
  ctx.write_text("jct_cdf.svg", jct_cdf_svg(runs, metrics, size));
  ctx.write_text("utilization.svg", timeseries_svg(runs, "util", size));
  ctx.write_text("queue_length.svg", timeseries_svg(runs, "queue", size));
  ctx.write_text("fragmentation.svg", timeseries_svg(runs, "frag", size));
}

}  // namespace mlsys::sim
