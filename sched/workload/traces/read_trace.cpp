#include "sched/workload/traces/read_trace.hpp"

#include <algorithm>
#include <filesystem>

#include "core/util/error.hpp"
#include "sched/workload/traces/generator.hpp"
#include "core/util/fs.hpp"

namespace mlsys::workload {

namespace fs = std::filesystem;

std::vector<std::string> trace_files(const TraceOptions& opts) {
  std::vector<std::string> inputs;
  if (!opts.path.empty()) inputs.push_back(opts.path);
  inputs.insert(inputs.end(), opts.paths.begin(), opts.paths.end());
  if (inputs.empty()) throw ConfigError("trace.path is empty: name a trace file or folder");
  std::vector<std::string> files;
  for (const auto& in : inputs) {
    require_input(in, in == opts.path ? "trace.path" : "trace.paths", InputKind::Any, "a trace file or a folder of them");
    if (!fs::is_directory(in)) {
      files.push_back(in);
      continue;
    }
    // A folder: every regular file the chosen (or any) reader recognises.
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(in)) {
      if (!e.is_regular_file()) continue;
      std::string fmt = detect_trace_format(e.path().string());
      if (fmt.empty()) continue;
      if (opts.format != "auto" && fmt != opts.format) continue;
      found.push_back(e.path().string());
    }
    if (found.empty())
      throw Error(in + ": folder holds no recognised trace files" +
                  (opts.format != "auto" ? " of format " + opts.format : std::string()));
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// An exclusion that matches nothing is a mistyped id (or another trace): never silently ignored.
static void check_exclusions(const TraceOptions& opts, const TraceSummary& summary, const ReadShared& shared) {
  if (summary.stopped_early) return;
  for (const auto& id : opts.exclude_ids)
    if (!shared.excluded.count(id))
      throw ConfigError("job id '" + id + "' is listed to be left out (trace.exclude_ids), but no job of " +
                        join(summary.files, ", ") + " has that id; fix or remove it");
}

TraceSummary stream_trace(const TraceOptions& opts, const JobSink& sink) {
  TraceSummary summary;
  ReadShared shared;
  for (const auto& file : trace_files(opts)) {
    std::string fmt = opts.format;
    if (fmt == "auto") {
      fmt = detect_trace_format(file);
      if (fmt.empty())
        throw ConfigError(file + ": cannot tell the trace format from its name and header; set trace.format to one "
                                 "of: " + join(trace_reader_registry().names(), ", "));
    }
    auto reader = trace_reader_registry().create(fmt);
    summary.files.push_back(file);
    summary.formats.push_back(fmt);
    ReadContext ctx(file, opts, summary, sink, shared);
    reader->read(ctx);
    if (ctx.done()) break;
  }
  check_exclusions(opts, summary, shared);
  return summary;
}

void finalize_jobs(std::vector<JobSpec>& jobs) {
  auto by_submit = [](const JobSpec& a, const JobSpec& b) { return a.submit_time < b.submit_time; };
  // Most traces are already in submit order; the stable sort moves every job, so check first.
  if (!std::is_sorted(jobs.begin(), jobs.end(), by_submit)) std::stable_sort(jobs.begin(), jobs.end(), by_submit);
  for (size_t i = 0; i < jobs.size(); ++i) jobs[i].index = static_cast<int64_t>(i);
}

// A capacity guess from the file sizes (about 60 bytes per row), capped at 1M jobs: growing a
// vector of 256-byte jobs by doubling costs more than the parse. Untouched capacity stays virtual.
static size_t capacity_guess(const TraceOptions& opts) {
  uintmax_t bytes = 0;
  std::error_code ec;
  auto add = [&](const std::string& in) {
    if (!in.empty() && fs::is_regular_file(in, ec)) bytes += fs::file_size(in, ec);
  };
  add(opts.path);
  for (const auto& p : opts.paths) add(p);
  size_t guess = static_cast<size_t>(std::min<uintmax_t>(bytes / 60, uintmax_t{1} << 20));
  if (opts.max_jobs > 0) guess = std::min(guess, static_cast<size_t>(opts.max_jobs));
  return guess;
}

TraceLoad read_trace(const TraceOptions& opts) {
  TraceLoad out;
  out.jobs.reserve(capacity_guess(opts));
  out.summary = stream_trace(opts, [&](JobSpec&& j) {
    out.jobs.push_back(std::move(j));
    return true;
  });
  // Give back a large unused tail only (shrinking moves every job).
  if (out.jobs.capacity() > 2 * out.jobs.size() + 1024) out.jobs.shrink_to_fit();
  finalize_jobs(out.jobs);
  return out;
}

TraceLoad load_or_generate(const TraceOptions& trace, const TracegenOptions& gen, uint64_t seed) {
  if (!trace.path.empty() || !trace.paths.empty()) return read_trace(trace);
  TraceLoad out;
  TraceSummary& s = out.summary;
  s.files.push_back("(generated)");
  s.formats.push_back("tracegen");
  // Same filters as a file read, through the same code path.
  ReadShared shared;
  JobSink keep = [&](JobSpec&& j) {
    out.jobs.push_back(std::move(j));
    return true;
  };
  ReadContext ctx("(generated)", trace, s, keep, shared);
  TraceGenerator g(gen, seed);
  JobSpec j;
  while (g.next(j)) {
    ctx.row();
    if (!ctx.emit(std::move(j))) break;
  }
  check_exclusions(trace, s, shared);
  finalize_jobs(out.jobs);
  return out;
}

}  // namespace mlsys::workload
