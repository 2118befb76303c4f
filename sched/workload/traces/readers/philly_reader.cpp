// Microsoft Philly job log (msr-fiddle/philly-traces cluster_job_log): a JSON array of jobs
//   {"status": "Pass"|"Killed"|"Failed", "vc": ..., "jobid": ..., "user": ..., "submitted_time": "YYYY-MM-DD HH:MM:SS",
//    "attempts": [{"start_time": ..., "end_time": ..., "detail": [{"ip": ..., "gpus": ["gpu0", ...]}]}]}
// Streamed one job object at a time (the file is hundreds of MB). duration = sum over attempts of
// end - start (attempts without both times are ignored); num_gpus = the largest GPU count of any
// attempt. Jobs without a finished attempt never ran (or still ran at the trace end): skipped and
// counted. Also reads JSON Lines (one job object per line).
#include <algorithm>

#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/io/line_reader.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::workload {
namespace {

const std::string* string_field(const Json& o, std::string_view key) {
  const Json* v = o.find(key);
  return v && v->is_string() ? &v->as_string() : nullptr;
}

class PhillyReader final : public TraceReader {
 public:
  int detect(std::string_view name, std::string_view first) const override {
    std::string_view t = trim(first);
    bool json = !t.empty() && (t.front() == '[' || t.front() == '{');
    if (!json) return 0;
    // Other JSON files (cluster specs...) are not traces: a differently named job log needs trace.format.
    return name.find("cluster_job_log") != std::string_view::npos || t.find("submitted_time") != std::string_view::npos
               ? 10
               : 0;
  }

  void read(ReadContext& ctx) override {
    LineReader in(ctx.file());
    std::string_view line;
    std::string obj;
    int depth = 0;
    bool in_string = false, escaped = false;
    int64_t obj_line = 0, obj_col = 0;
    while (in.next(line)) {
      for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (depth == 0) {
          if (c == '{') {
            depth = 1;
            obj.assign(1, c);
            obj_line = in.line_number();
            obj_col = static_cast<int64_t>(i) + 1;
          } else if (c != '[' && c != ']' && c != ',' && c != ' ' && c != '\t' && c != '\r') {
            ctx.row();
            ctx.bad_row(in.line_number(), static_cast<int>(i) + 1, "", std::string(1, c),
                        "expected a JSON object for each job");
            break;  // lenient: skip the rest of this line
          }
          continue;
        }
        obj.push_back(c);
        if (in_string) {
          if (escaped) escaped = false;
          else if (c == '\\') escaped = true;
          else if (c == '"') in_string = false;
        } else if (c == '"') {
          in_string = true;
        } else if (c == '{' || c == '[') {
          ++depth;
        } else if (c == '}' || c == ']') {
          if (--depth == 0) {
            if (!job(ctx, obj, obj_line, obj_col)) return;
          }
        }
      }
      if (depth > 0) obj.push_back('\n');
    }
    if (depth > 0) {
      ctx.row();
      ctx.bad_row(obj_line, static_cast<int>(obj_col), "", "", "job object not closed before the end of the file");
    }
  }

 private:
  // Returns false to stop reading.
  bool job(ReadContext& ctx, const std::string& text, int64_t line, int64_t col) {
    ctx.row(line);
    Json o;
    try {
      o = Json::parse(text);
    } catch (const Error& e) {
      ctx.bad_row(line, static_cast<int>(col), "", "", std::string("invalid JSON: ") + e.what());
      return true;
    }
    auto bad = [&](std::string_view field, std::string_view value, std::string_view why) {
      ctx.bad_row(line, static_cast<int>(col), field, value, why);
      return true;
    };
    const std::string* submitted = string_field(o, "submitted_time");
    if (!submitted) return bad("submitted_time", "", "missing or not a string");
    auto sub = parse_datetime(*submitted);
    if (!sub) return bad("submitted_time", *submitted, "not a date-time 'YYYY-MM-DD HH:MM:SS'");
    const Json* attempts = o.find("attempts");
    if (!attempts || !attempts->is_array()) return bad("attempts", "", "missing or not a list");
    double duration = 0;
    int gpus = 0;
    bool ran = false;
    for (const auto& a : attempts->as_array()) {
      if (!a.is_object()) return bad("attempts", "", "each attempt must be an object");
      const std::string* s = string_field(a, "start_time");
      const std::string* e = string_field(a, "end_time");
      // "None"/null times mark attempts that never started or had not ended: not run time.
      int64_t st = 0, et = 0;
      bool has_st = false, has_et = false;
      if (s && *s != "None") {
        auto t = parse_datetime(*s);
        if (!t) return bad("attempts.start_time", *s, "not a date-time");
        st = t.value_or(0);
        has_st = true;
      }
      if (e && *e != "None") {
        auto t = parse_datetime(*e);
        if (!t) return bad("attempts.end_time", *e, "not a date-time");
        et = t.value_or(0);
        has_et = true;
      }
      if (has_st && has_et) {
        if (et < st) return bad("attempts.end_time", *e, "before the attempt's start_time");
        duration += static_cast<double>(et - st);
        ran = true;
      }
      int n = 0;
      if (const Json* detail = a.find("detail"); detail && detail->is_array()) {
        for (const auto& d : detail->as_array()) {
          const Json* g = d.is_object() ? d.find("gpus") : nullptr;
          if (g && g->is_array()) n += static_cast<int>(g->as_array().size());
        }
      }
      gpus = std::max(gpus, n);
    }
    double submit = ctx.relative_time(*sub);
    if (!ran) {
      ctx.skip_row("philly job without a finished attempt");
      return true;
    }
    JobSpec j;
    j.submit_time = submit;
    j.duration = duration;
    j.num_gpus = gpus;
    if (auto* v = string_field(o, "jobid")) j.id = *v;
    if (auto* v = string_field(o, "user")) j.user = *v;
    if (auto* v = string_field(o, "vc")) j.vc = *v;
    if (auto* v = string_field(o, "status")) j.state = parse_job_state(*v);
    else j.state = JobState::Unknown;
    return ctx.emit(std::move(j));
  }
};

const bool registered = trace_reader_registry().add(
    "philly", "Microsoft Philly cluster_job_log JSON (jobs with attempts, status and per-attempt GPUs)",
    [] { return std::make_unique<PhillyReader>(); });

}  // namespace
}  // namespace mlsys::workload
