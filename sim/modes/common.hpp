#pragma once
// What the `mlsys simulate` modes share: loading the trace (recorded in the run record), progress
// for long phases, running configurations in parallel, and the standard plots. Each mode is one
// file in this folder that registers itself with add_command_mode("simulate", ...).
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/log/progress.hpp"
#include "core/runtime/command.hpp"
#include "core/runtime/run_context.hpp"
#include "sched/workload/job.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sim/run/simulation.hpp"

namespace mlsys::sim {

// A progress display for a phase of `total` items, or none for a short phase (or run.progress off).
std::optional<Progress> phase_progress(const RunContext& ctx, const std::string& what, int64_t total,
                                       const std::string& unit);
// The generator's run-time distribution, in the run record: the built-in fit or the CSV it read.
void record_runtimes_input(RunContext& ctx, const workload::TracegenOptions& g, const std::string& source);
// The trace: trace.path when set, else the generator (the quickstart demo). `source` describes it.
std::vector<workload::JobSpec> load_jobs(RunContext& ctx, std::string& source);
double wall_since(std::chrono::steady_clock::time_point t0);
// Runs task(i) for every i < n on up to run.threads threads (core parallel_for) with a progress
// bar; errors[i] is what task i threw (null when it did not). Returns the number of threads used.
size_t run_parallel(RunContext& ctx, size_t n, const std::string& what, const std::string& unit,
                    std::vector<std::exception_ptr>& errors, const std::function<void(size_t)>& task);
// jct_cdf.svg, utilization.svg, queue_length.svg, fragmentation.svg.
void write_plots(RunContext& ctx, const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics);

}  // namespace mlsys::sim
