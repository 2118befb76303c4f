#pragma once
// Reading traces: the one entry point the simulator and SchedMate use.
//
//   TraceOptions o; o.path = "../shared/data/traces/tiresias/60_job.csv";
//   TraceLoad t = read_trace(o);      // t.jobs sorted by submit time, index = 0..N-1
//   stream_trace(o, [](JobSpec&& j) { ...; return true; });   // constant memory
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sched/workload/job.hpp"
#include "sched/workload/traces/trace_options.hpp"
#include "sched/workload/traces/trace_reader.hpp"
#include "sched/workload/traces/trace_summary.hpp"

namespace mlsys::workload {

struct TraceLoad {
  std::vector<JobSpec> jobs;  // stable-sorted by submit_time (ties keep file order); index set
  TraceSummary summary;
};

// Reads every file of opts.path/opts.paths with its reader (opts.format or detected), applies
// the filters and returns the kept jobs. Throws InputError on a bad row unless opts.lenient,
// ConfigError on an unknown format, Error when a file is missing.
TraceLoad read_trace(const TraceOptions& opts);

// Same, but hands each kept job to `sink` in file order without storing it.
TraceSummary stream_trace(const TraceOptions& opts, const JobSink& sink);

// The files `opts` names: folders expand to their recognised trace files, sorted by name.
std::vector<std::string> trace_files(const TraceOptions& opts);

struct TracegenOptions;
// The jobs a command runs on: read_trace(trace) when trace.path/paths name a trace, otherwise a
// generated trace (tracegen options, seed) with the trace filters applied, so a default config
// needs no data. The summary lists "tracegen" as its format.
TraceLoad load_or_generate(const TraceOptions& trace, const TracegenOptions& gen, uint64_t seed);

// Sorts by submit time (stable) and sets index = position.
void finalize_jobs(std::vector<JobSpec>& jobs);

}  // namespace mlsys::workload
