#include "sched/schedmate/jobs/job_source.hpp"

#include <algorithm>
#include <filesystem>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/number_parse.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::schedmate {

namespace {
// The numbers of a jobs JSONL line (core/util/number_parse.hpp): a GPU count is a whole number in
// the trace readers' range (99999999999 once became -2147483648, 2.7 became 2); times, durations
// and step counts are finite and not negative, times at most kMaxFileSeconds.
constexpr IntRule kJobGpus{"num_gpus", 0, workload::kMaxGpus};
constexpr RealRule kJobSteps{"total_steps", 0, 1e18};
constexpr RealRule kJobSubmit{"submit_time", 0, kMaxFileSeconds};
constexpr RealRule kJobDuration{"duration", 0, kMaxFileSeconds};
}  // namespace

std::vector<AdvisedJob> parse_jobs_jsonl(const std::string& text, const std::string& name, const InputLimits& limits,
                                         const std::string& script_dir) {
  const std::filesystem::path base = std::filesystem::path(name).parent_path();
  const std::filesystem::path allowed = script_dir.empty() ? (base.empty() ? std::filesystem::path(".") : base)
                                                           : std::filesystem::path(script_dir);
  std::vector<AdvisedJob> out;
  size_t pos = 0;
  int64_t line_no = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json j;
    if (json_depth(line, limits.max_json_depth) > limits.max_json_depth)
      throw InputError(name + ":" + std::to_string(line_no) + ": JSON nested deeper than schedmate.limits.max_json_depth");
    try {
      j = Json::parse(line);
    } catch (const std::exception& e) {
      throw InputError(name + ":" + std::to_string(line_no) + ": not a JSON object: " + e.what());
    }
    if (!j.is_object()) throw InputError(name + ":" + std::to_string(line_no) + ": expected a JSON object per line");
    auto str = [&](const char* k) {
      const Json* v = j.find(k);
      return v && v->is_string() ? v->as_string() : std::string();
    };
    const std::string where = name + ":" + std::to_string(line_no);
    auto num = [&](const RealRule& rule, double def) {
      const Json* v = j.find(rule.field);
      return !v || v->is_null() ? def : json_field(*v, rule, where);
    };
    AdvisedJob a;
    a.id = str("id");
    if (a.id.empty()) a.id = "job-" + std::to_string(out.size());
    a.user = str("user");
    a.vc = str("vc");
    a.name = str("name");
    a.text.command = str("command");
    a.text.script = str("script");
    if (!a.text.script.empty() && a.text.script[0] == '@')
      a.text.script = valid_utf8(read_referenced_file(a.text.script.substr(1), base.empty() ? "." : base, allowed, limits,
                                                      name + ":" + std::to_string(line_no)));
    a.text.name = a.name;
    const Json* gpus = j.find(kJobGpus.field);
    a.text.num_gpus = !gpus || gpus->is_null() ? 1 : static_cast<int>(json_field(*gpus, kJobGpus, where));
    a.text.trace_steps = num(kJobSteps, 0);
    a.text.gpu_type = str("gpu_type");
    a.submit_time = num(kJobSubmit, 0);
    a.duration = num(kJobDuration, NAN);
    out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const AdvisedJob& x, const AdvisedJob& y) { return x.submit_time < y.submit_time; });
  return out;
}

std::string jobs_to_jsonl(const std::vector<AdvisedJob>& jobs) {
  std::string out;
  for (const auto& a : jobs) {
    Json j = Json::object();
    j["id"] = a.id;
    j["user"] = a.user;
    j["name"] = a.name;
    j["command"] = a.text.command;
    j["num_gpus"] = a.text.num_gpus;
    j["submit_time"] = a.submit_time;
    if (!std::isnan(a.duration)) j["duration"] = a.duration;
    if (a.text.trace_steps > 0) j["total_steps"] = a.text.trace_steps;
    if (!a.text.gpu_type.empty()) j["gpu_type"] = a.text.gpu_type;
    out += j.dump() + "\n";
  }
  return out;
}

std::vector<AdvisedJob> load_jobs(const JobSourceOptions& opt) {
  if (opt.path.empty()) throw ConfigError("schedmate.jobs is empty: name a trace or a JSONL file of jobs");
  // A path given is a path used (or the run stops): never a fallback to a file found elsewhere.
  if (!opt.throughputs.empty()) require_input(opt.throughputs, "schedmate.throughputs", InputKind::File);
  require_input(opt.path, "schedmate.jobs", InputKind::Any, "a trace or a JSONL file of jobs");
  std::string fmt = opt.format;
  if (fmt == "auto" && std::filesystem::path(opt.path).extension() == ".jsonl") fmt = "jsonl";
  if (fmt == "jsonl") {
    auto jobs = parse_jobs_jsonl(read_regular_file(opt.path, opt.limits.max_jobs_bytes, "schedmate.limits.max_jobs_bytes"),
                                 opt.path, opt.limits, opt.script_dir);
    for (const auto& id : opt.exclude_ids) {
      auto it = std::remove_if(jobs.begin(), jobs.end(), [&](const AdvisedJob& j) { return j.id == id; });
      if (it == jobs.end())
        throw InputError("schedmate.exclude_ids names '" + id + "', but no job of " + opt.path + " has that id");
      jobs.erase(it, jobs.end());
    }
    return jobs;
  }
  workload::TraceOptions t;
  t.path = opt.path;
  t.format = fmt;
  t.gpu_type = opt.gpu_type;
  t.throughputs = opt.throughputs;
  t.lenient = opt.lenient;
  t.exclude_ids = opt.exclude_ids;
  // A folder of raw MLPerf result logs keeps them at <org>/results/<system>/<benchmark>/.
  if (fmt == "mlperf_log" && std::filesystem::is_directory(opt.path)) {
    t.path.clear();
    for (const auto& e : std::filesystem::recursive_directory_iterator(opt.path))
      if (e.is_regular_file() && e.path().filename().string().rfind("result_", 0) == 0) t.paths.push_back(e.path().string());
    std::sort(t.paths.begin(), t.paths.end());
    if (t.paths.empty()) throw Error(opt.path + ": no MLPerf result_<k>.txt logs below this folder");
  }
  // Without a throughputs file, a Gavel trace cannot have durations: no fallback to one found elsewhere.
  if (opt.throughputs.empty())
    for (const auto& f : workload::trace_files(t))
      if (const std::string f_fmt = fmt == "auto" ? workload::detect_trace_format(f) : fmt;
          f_fmt == "gavel" || f_fmt == "gavel_physical")
        throw ConfigError(f + " is a Gavel trace: its durations need step throughputs; set schedmate.throughputs to "
                              "gavel_isolated_throughputs.csv");
  auto load = workload::read_trace(t);
  std::vector<AdvisedJob> out;
  out.reserve(load.jobs.size());
  for (auto& j : load.jobs) {
    AdvisedJob a;
    a.id = j.id;
    a.user = j.user;
    a.vc = j.vc;
    a.name = j.name;
    a.text.command = j.command;
    a.text.name = j.name;
    a.text.num_gpus = j.num_gpus;
    a.text.trace_steps = j.total_steps;
    a.text.gpu_type = j.gpu_type;
    a.submit_time = j.submit_time;
    a.duration = j.duration;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace mlsys::schedmate
