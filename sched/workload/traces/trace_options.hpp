#pragma once
// The `trace:` config section: which trace to read, how, and which jobs to keep.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::workload {

// The default Gavel throughput table: the shared data's copy, named explicitly. A leading
// ${MLSYS_DATA_DIR} is that folder (an error when the variable is not set).
inline constexpr const char* kDefaultThroughputs = "${MLSYS_DATA_DIR}/jobs/gavel_isolated_throughputs.csv";

struct TraceOptions {
  std::string path;                 // a trace file, or a folder whose recognised files are all read
  std::vector<std::string> paths;   // more files/folders, read after `path` in the order given
  std::string format = "auto";      // a registered reader name, or auto (by file name and header)
  bool lenient = false;             // skip bad rows (counted with reasons) instead of failing
  // Filters (a job is kept only when it passes all of them).
  double start_s = 0;               // keep jobs submitted at or after this time (seconds)
  double end_s = -1;                // and before this time; < 0 = no upper bound
  std::vector<std::string> vcs;     // keep only these virtual clusters; empty = all
  std::vector<std::string> states;  // keep only these states (completed, failed, killed, unknown)
  int min_gpus = 0;                 // keep jobs requesting at least this many GPUs
  int max_gpus = -1;                // and at most this many; < 0 = no bound
  int64_t max_jobs = 0;             // stop after this many kept jobs; 0 = all
  // Jobs left out by id (a record the data itself marks invalid, e.g. an MLPerf log whose run time
  // its submitter edited); each id must match a job of a whole read, else the read stops.
  std::vector<std::string> exclude_ids;
  // Validation: a submit time or duration beyond this is a bad row (a typo such as 1e12 s would
  // otherwise make a simulation sample and run for ever).
  double horizon_s = 1e9;
  // Gavel/Philly per-VC traces: durations = total_steps / isolated steps-per-second on gpu_type.
  std::string gpu_type = "v100";
  std::string throughputs = kDefaultThroughputs;  // gavel_isolated_throughputs.csv
  // Datetime traces (Helios, Philly JSON): time 0; "" = 00:00:00 UTC of the first row's day.
  std::string time_origin;
};

const config::Section<TraceOptions>& trace_section();

// Path of the Gavel throughput table trace.throughputs names (${MLSYS_DATA_DIR} expanded; "" is
// the default, for callers that pass no value). ConfigError when the variable is unset or the
// file does not exist: the run stops rather than guess.
std::string resolve_throughputs_path(const TraceOptions& opts);

}  // namespace mlsys::workload
