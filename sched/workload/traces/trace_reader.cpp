#include "sched/workload/traces/trace_reader.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/gavel_throughputs.hpp"

namespace mlsys::workload {

TraceReaderRegistry& trace_reader_registry() {
  static TraceReaderRegistry r("trace format");
  return r;
}

std::vector<std::string> trace_format_names() {
  auto names = trace_reader_registry().names();
  names.insert(names.begin(), "auto");
  return names;
}

std::vector<config::Choice> trace_format_choices() {
  auto choices = trace_reader_registry().choices();
  choices.insert(choices.begin(), {"auto", "tell the format from the file's name and first line"});
  return choices;
}

ReadContext::ReadContext(std::string file, const TraceOptions& opts, TraceSummary& summary, const JobSink& sink,
                         ReadShared& shared)
    : file_(std::move(file)), opts_(opts), summary_(summary), sink_(sink), shared_(shared) {}

static bool passes(const JobSpec& j, const TraceOptions& o) {
  if (j.submit_time < o.start_s) return false;
  if (o.end_s >= 0 && j.submit_time >= o.end_s) return false;
  if (j.num_gpus < o.min_gpus) return false;
  if (o.max_gpus >= 0 && j.num_gpus > o.max_gpus) return false;
  if (!o.vcs.empty()) {
    bool found = false;
    for (const auto& v : o.vcs) found = found || v == j.vc;
    if (!found) return false;
  }
  if (!o.states.empty()) {
    bool found = false;
    for (const auto& s : o.states) found = found || to_lower(s) == to_string(j.state);
    if (!found) return false;
  }
  return true;
}

// The first value of a job outside what the simulator and SchedMate can take, as (field, value,
// reason); an empty field when all are in range.
struct OutOfRange {
  std::string field, value, reason;
};
static OutOfRange out_of_range(const JobSpec& j, double horizon) {
  auto time = [&](const char* field, double v) -> OutOfRange {
    if (!std::isfinite(v) || v < 0) return {field, format_number(v), "must be a finite number >= 0"};
    if (v > horizon)
      return {field, format_number(v),
              "beyond trace.horizon_s = " + format_number(horizon) + " s (raise it if the trace really spans that long)"};
    return {};
  };
  if (j.num_gpus < 0 || j.num_gpus > kMaxGpus)
    return {"num_gpus", std::to_string(j.num_gpus), "must be in [0, " + std::to_string(kMaxGpus) + "]"};
  if (j.gpu_milli < 0 || j.gpu_milli > 1000)
    return {"gpu_milli", std::to_string(j.gpu_milli), "must be in [0, 1000] (thousandths of one GPU)"};
  if (j.cpu_milli < 0 || j.memory_mib < 0) return {"cpu_milli/memory_mib", "", "must be >= 0"};
  if (auto r = time("submit_time", j.submit_time); !r.field.empty()) return r;
  return time("duration", j.duration);
}

// Why a job submitted before time 0 is refused: where time 0 came from, and how to move it.
static std::string before_origin(int64_t origin, const std::string& configured) {
  const std::time_t t = origin;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
  return std::string("submitted before the trace's time 0, ") + when +
         (configured.empty() ? " UTC (midnight of the first row's day)" : " UTC (trace.time_origin)") +
         ": set trace.time_origin to an earlier 'YYYY-MM-DD HH:MM:SS'";
}

bool ReadContext::emit(JobSpec&& job) {
  if (stopped_) return false;
  if (auto bad = out_of_range(job, opts_.horizon_s); !bad.field.empty()) {
    if (bad.field == "submit_time" && job.submit_time < 0 && shared_.have_origin)
      bad.reason = before_origin(shared_.origin, opts_.time_origin);
    bad_row(line_, 0, bad.field, bad.value, bad.reason);
    return true;
  }
  if (!opts_.exclude_ids.empty() &&
      std::find(opts_.exclude_ids.begin(), opts_.exclude_ids.end(), job.id) != opts_.exclude_ids.end()) {
    shared_.excluded.insert(job.id);
    skip_row("listed in trace.exclude_ids");
    return true;
  }
  if (!passes(job, opts_)) {
    ++summary_.filtered_out;
    return true;
  }
  ++summary_.jobs_kept;
  if (!sink_(std::move(job))) stopped_ = true;
  if (opts_.max_jobs > 0 && summary_.jobs_kept >= opts_.max_jobs) stopped_ = true;
  if (stopped_) summary_.stopped_early = true;
  return !stopped_;
}

void ReadContext::bad_row(int64_t line, int column, std::string_view field, std::string_view value,
                          std::string_view reason) {
  std::string shown(value.substr(0, 60));
  if (value.size() > 60) shown += "...";
  std::string where = file_ + ":" + std::to_string(line) + (column > 0 ? ":" + std::to_string(column) : "");
  std::string msg = where + ": ";
  if (!field.empty()) msg += "field '" + std::string(field) + "' = '" + shown + "': ";
  msg += std::string(reason);
  if (!opts_.lenient)
    throw InputError(msg + " (fix the row, or set trace.lenient: true / --lenient to skip bad rows)");
  ++summary_.bad_rows;
  std::string key = field.empty() ? std::string(reason) : std::string(field) + ": " + std::string(reason);
  ++summary_.bad_reasons[key];
  if (summary_.bad_examples.size() < 5) summary_.bad_examples.push_back(msg);
}

void ReadContext::skip_row(std::string_view reason) { ++summary_.skipped[std::string(reason)]; }

const GavelThroughputs& ReadContext::throughputs() {
  if (!shared_.throughputs) {
    std::string path = resolve_throughputs_path(opts_);
    summary_.inputs.push_back(path);
    auto t = std::make_shared<GavelThroughputs>(GavelThroughputs::load(path));
    if (!t->has_gpu_type(opts_.gpu_type))
      throw ConfigError("trace.gpu_type = '" + opts_.gpu_type + "': no throughputs for this GPU type in " + path);
    shared_.throughputs = std::move(t);
  }
  return *shared_.throughputs;
}

double ReadContext::relative_time(int64_t absolute_s) {
  if (!shared_.have_origin) {
    if (!opts_.time_origin.empty()) {
      auto t = parse_datetime(opts_.time_origin);
      if (!t)
        throw ConfigError("trace.time_origin = '" + opts_.time_origin + "': expected 'YYYY-MM-DD HH:MM:SS'");
      shared_.origin = *t;
    } else {
      shared_.origin = day_start(absolute_s);
    }
    shared_.have_origin = true;
  }
  return static_cast<double>(absolute_s - shared_.origin);
}

// ---- RowParser ----

void RowParser::fail(size_t col, std::string_view reason) {
  if (!ok_) return;
  ok_ = false;
  std::string_view name = col < names_.size() ? std::string_view(names_[col]) : std::string_view();
  ctx_.bad_row(line_, static_cast<int>(col) + 1, name, text(col), reason);
}

bool RowParser::present(int col) const { return col >= 0 && !blank(text(static_cast<size_t>(col))); }

bool RowParser::need(size_t n) {
  if (fields_.size() >= n) return true;
  if (ok_) {
    ok_ = false;
    ctx_.bad_row(line_, static_cast<int>(fields_.size()) + 1, "", "",
                 "expected " + std::to_string(n) + " fields, found " + std::to_string(fields_.size()));
  }
  return false;
}

double RowParser::number(size_t col, double min_value) {
  auto v = parse_double(text(col));
  if (!v) {
    fail(col, "not a number");
    return 0;
  }
  if (*v < min_value) {
    fail(col, "must be >= " + format_number(min_value));
    return 0;
  }
  return *v;
}

int64_t RowParser::integer(size_t col, int64_t min_value, int64_t max_value) {
  auto v = parse_int(text(col));
  if (!v) {
    fail(col, "not an integer");
    return 0;
  }
  if (*v < min_value) {
    fail(col, "must be >= " + std::to_string(min_value));
    return 0;
  }
  if (*v > max_value) {
    fail(col, "must be <= " + std::to_string(max_value));
    return 0;
  }
  return *v;
}

int RowParser::gpu_count(size_t col, int min_value) { return static_cast<int>(integer(col, min_value, kMaxGpus)); }

double RowParser::seconds(size_t col, double min_value) {
  double v = number(col, min_value);
  const double horizon = ctx_.options().horizon_s;
  if (ok_ && v > horizon) {
    fail(col, "beyond trace.horizon_s = " + format_number(horizon) + " s (raise it if the trace really spans that long)");
    return 0;
  }
  return v;
}

int64_t RowParser::datetime(size_t col) {
  auto v = parse_datetime(text(col));
  if (!v) {
    fail(col, "not a date-time 'YYYY-MM-DD HH:MM:SS'");
    return 0;
  }
  return *v;
}

// ---- detection ----

std::string detect_trace_format(const std::string& path) {
  // A file that cannot be read (missing, a folder, corrupt gzip) is an error naming it, never
  // "cannot tell the format".
  std::string first;
  LineReader in(path);
  std::string_view line;
  // First non-empty line.
  while (in.next(line)) {
    if (!trim(line).empty()) {
      first = std::string(line);
      break;
    }
  }
  std::string name = std::filesystem::path(path).filename().string();
  std::string best;
  int best_score = 0;
  for (const auto* e : trace_reader_registry().entries()) {
    int score = e->factory()->detect(name, first);
    if (score > best_score) {
      best_score = score;
      best = e->name;
    }
  }
  return best;
}

JobState parse_job_state(std::string_view s) {
  // Fast path for the spellings the native CSV writes.
  if (s == "completed") return JobState::Completed;
  if (s == "failed") return JobState::Failed;
  if (s == "killed") return JobState::Killed;
  std::string l = to_lower(trim(s));
  if (l == "completed" || l == "pass" || l == "passed" || l == "succeeded" || l == "success" || l == "terminated" ||
      l == "running" || l == "done" || l == "finished")
    return JobState::Completed;
  if (l == "failed" || l == "fail" || l == "node_fail" || l == "timeout" || l == "out_of_memory" || l == "error")
    return JobState::Failed;
  if (l == "killed" || l == "cancelled" || l == "canceled" || l == "preempted") return JobState::Killed;
  return JobState::Unknown;
}

}  // namespace mlsys::workload
