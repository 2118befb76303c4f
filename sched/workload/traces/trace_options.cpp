#include "sched/workload/traces/trace_options.hpp"

#include <filesystem>

#include "core/util/fs.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::workload {

const config::Section<TraceOptions>& trace_section() {
  static const config::Section<TraceOptions> s("trace", "Job trace input: file(s), format and filters", [](auto& s) {
    s.field("path", &TraceOptions::path,
            "Trace file, or a folder whose recognised trace files are all read (sorted by name)");
    s.field("paths", &TraceOptions::paths, "More trace files or folders, read after `path` in this order");
    s.field("format", &TraceOptions::format, "Trace format; auto detects it from the file name and header")
        .choices_described(trace_format_choices);
    s.field("lenient", &TraceOptions::lenient,
            "Skip bad rows (counted by reason in the summary) instead of failing (--lenient)");
    s.field("start_s", &TraceOptions::start_s, "Keep jobs submitted at or after this time (seconds)");
    s.field("end_s", &TraceOptions::end_s, "Keep jobs submitted before this time (seconds); negative = no bound");
    s.field("vcs", &TraceOptions::vcs, "Keep only these virtual clusters; empty keeps all");
    s.field("states", &TraceOptions::states, "Keep only jobs in these states; empty keeps all")
        .choices({"completed", "failed", "killed", "unknown"});
    s.field("min_gpus", &TraceOptions::min_gpus, "Keep jobs requesting at least this many GPUs").range(0, 1 << 20);
    s.field("max_gpus", &TraceOptions::max_gpus, "Keep jobs requesting at most this many GPUs; negative = no bound")
        .range(-1, 1 << 20);
    s.field("max_jobs", &TraceOptions::max_jobs, "Stop after this many kept jobs (in file order); 0 keeps all")
        .min(0);
    s.field("exclude_ids", &TraceOptions::exclude_ids,
            "Leave out the jobs with these ids (records the data marks invalid); an id that matches no job stops the "
            "run");
    s.field("horizon_s", &TraceOptions::horizon_s,
            "Latest submit time and longest duration a trace row may have (seconds, default about 31 years); "
            "a row beyond it is a bad row")
        .range(1, 1e15);
    s.field("gpu_type", &TraceOptions::gpu_type,
            "GPU type whose Gavel throughputs give Gavel trace durations (k80, p100, v100; v100 matches the "
            "Helios reference)");
    s.field("throughputs", &TraceOptions::throughputs,
            "Gavel isolated throughputs CSV (durations of Gavel traces); a leading ${MLSYS_DATA_DIR} is the shared "
            "data folder");
    s.field("time_origin", &TraceOptions::time_origin,
            "Time 0 of datetime traces ('YYYY-MM-DD HH:MM:SS' UTC); empty = midnight of the first row's day");
  });
  return s;
}

std::string resolve_throughputs_path(const TraceOptions& opts) {
  std::string path = opts.throughputs.empty() ? std::string(kDefaultThroughputs) : opts.throughputs;
  const std::string var = "${MLSYS_DATA_DIR}";
  if (path.compare(0, var.size(), var) == 0) {
    const auto dir = data_dir();
    if (dir.empty())
      throw ConfigError("trace.throughputs = '" + path + "' but MLSYS_DATA_DIR is not set (or names no folder): set it "
                        "to the shared data folder, or set trace.throughputs to gavel_isolated_throughputs.csv");
    path = dir.string() + path.substr(var.size());
  }
  require_input(path, "trace.throughputs", InputKind::File, "Gavel traces need it for their durations");
  return path;
}

}  // namespace mlsys::workload
