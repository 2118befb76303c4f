#pragma once
// Trace reader plug-in interface. Each format lives in its own file under readers/ and registers
// itself: `static const bool registered = trace_reader_registry().add(name, description, factory);`
// Readers stream: they turn one row at a time into a JobSpec and hand it to ReadContext::emit,
// which applies the filters and the caller's sink, so memory follows the jobs kept, not the file.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/registry/registry.hpp"
#include "sched/workload/job.hpp"
#include "sched/workload/traces/trace_options.hpp"
#include "sched/workload/traces/trace_summary.hpp"

namespace mlsys::workload {

class GavelThroughputs;

// Receives each kept job; return false to stop reading (e.g. enough jobs).
using JobSink = std::function<bool(JobSpec&&)>;

// State shared by the files of one read (time origin, the throughput table).
struct ReadShared {
  bool have_origin = false;
  int64_t origin = 0;
  std::shared_ptr<GavelThroughputs> throughputs;
  std::set<std::string> excluded;  // ids of trace.exclude_ids met so far
};

// Per-file state a reader works with: options, filters, bad-row policy and the sink.
class ReadContext {
 public:
  ReadContext(std::string file, const TraceOptions& opts, TraceSummary& summary, const JobSink& sink,
              ReadShared& shared);

  const std::string& file() const { return file_; }
  // For formats spread over several files (PAI job + task tables): the file errors name.
  void set_file(std::string file) { file_ = std::move(file); }
  const TraceOptions& options() const { return opts_; }

  // A data row was seen (counted in the summary), starting at `line` when known (errors the
  // context raises itself name it).
  void row(int64_t line = 0) {
    ++summary_.rows_read;
    line_ = line;
  }
  // Offers a parsed job: checks its values are in range (GPUs in [0, kMaxGpus], gpu_milli in
  // [0, 1000], submit time and duration finite, >= 0 and within trace.horizon_s; otherwise a bad
  // row), filters it, passes it on; false = stop reading.
  bool emit(JobSpec&& job);
  // A row the reader cannot use. Strict: throws InputError "file:line:col: field 'name' = 'value':
  // reason"; lenient: counts it (by reason) and returns so the reader skips the row.
  void bad_row(int64_t line, int column, std::string_view field, std::string_view value, std::string_view reason);
  // A row deliberately not turned into a job (e.g. a Philly job that never ran): counted by reason.
  void skip_row(std::string_view reason);
  // Whether the caller wants no more jobs.
  bool done() const { return stopped_; }

  // Shared, lazily loaded Gavel throughput table (throws Error naming what to set when missing).
  const GavelThroughputs& throughputs();
  // Time origin for datetime traces: trace.time_origin, else midnight UTC of the first value seen.
  double relative_time(int64_t absolute_s);

 private:
  std::string file_;
  const TraceOptions& opts_;
  TraceSummary& summary_;
  const JobSink& sink_;
  ReadShared& shared_;
  bool stopped_ = false;
  int64_t line_ = 0;
};

// Most GPUs one job may request (also the largest GPU count any trace value may hold): larger
// values are bad rows, never overflows.
inline constexpr int kMaxGpus = 1 << 20;
// Most optimizer steps a trace row may hold (Gavel's total_steps): far past any real job.
inline constexpr int64_t kMaxTraceSteps = int64_t{1} << 40;

// Helper for field-by-field row parsing: remembers the first failure and reports it once.
class RowParser {
 public:
  RowParser(ReadContext& ctx, int64_t line, const std::vector<std::string_view>& fields,
            const std::vector<std::string>& names)
      : ctx_(ctx), line_(line), fields_(fields), names_(names) {}
  bool ok() const { return ok_; }
  std::string_view text(size_t col) const { return col < fields_.size() ? fields_[col] : std::string_view(); }
  // The field exists and is not blank.
  bool present(int col) const;
  double number(size_t col, double min_value = -1e300);
  int64_t integer(size_t col, int64_t min_value = INT64_MIN, int64_t max_value = INT64_MAX);
  // A GPU (or other) count in [min_value, kMaxGpus].
  int gpu_count(size_t col, int min_value = 0);
  // Seconds in [min_value, trace.horizon_s].
  double seconds(size_t col, double min_value = 0);
  int64_t datetime(size_t col);
  void fail(size_t col, std::string_view reason);
  // Fails the row when it has fewer than `n` fields.
  bool need(size_t n);

 private:
  ReadContext& ctx_;
  int64_t line_;
  const std::vector<std::string_view>& fields_;
  const std::vector<std::string>& names_;
  bool ok_ = true;
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // Confidence that this reader understands the file, from its name and first line: 0 = no.
  virtual int detect(std::string_view file_name, std::string_view first_line) const = 0;
  // Reads ctx.file() to the end (or until emit returns false).
  virtual void read(ReadContext& ctx) = 0;
};

using TraceReaderRegistry = Registry<TraceReader>;
TraceReaderRegistry& trace_reader_registry();
std::vector<std::string> trace_format_names();  // registered names plus "auto"
std::vector<config::Choice> trace_format_choices();  // the same with descriptions

// The registered reader that best recognises `path` ("" when none does).
std::string detect_trace_format(const std::string& path);

// Maps the states the supported traces use (COMPLETED, Pass, Failed, CANCELLED, Killed, ...).
JobState parse_job_state(std::string_view s);

}  // namespace mlsys::workload
