// One raw MLPerf Training result log (`<org>/results/<system>/[<benchmark>/]result_<k>.txt`, lines
// `:::MLLOG {json}`) as one job: benchmark from `submission_benchmark`, submitter from
// `submission_org`, system and accelerators from the path (else `submission_platform`), submit time
// = the first `run_start`, duration = last `run_stop` - first `run_start`, state from run_stop's
// status. The round is the path's `v<major>.<minor>` folder when it has one. Ids and names follow
// the runs.csv reader (mlperf_reader.cpp), so a log and its row are the same job. A log without
// run_start/run_stop, or whose clock is not epoch milliseconds, is skipped and counted.
#include <cctype>
#include <cmath>
#include <filesystem>

#include "core/util/json.hpp"
#include "core/io/line_reader.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/mlperf.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::workload {
namespace {

bool is_result_name(std::string_view name) {
  if (!starts_with(name, "result_") || name.size() < 12 || name.substr(name.size() - 4) != ".txt") return false;
  for (char c : name.substr(7, name.size() - 11))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_round(std::string_view s) {
  return s.size() >= 4 && s[0] == 'v' && std::isdigit(static_cast<unsigned char>(s[1])) && s.find('.') != std::string_view::npos;
}

// The node count of a submission_platform ("32xNVIDIA DGX A100"), core/util/number_parse.hpp.
constexpr IntRule kPlatformNodes{"submission_platform node count", 1, 1 << 16};

// "1xNVIDIA DGX A100", "tpu-v3-32", "gpu-v100-8".
Accelerators accelerators_from_platform(std::string_view platform) {
  std::string s;
  for (char c : to_lower(platform))
    if (c != ' ' && c != '-' && c != '_') s += c;
  int64_t nodes = 1;
  const size_t x = s.find('x');
  if (x != std::string::npos && x > 0 && s.find_first_not_of("0123456789") == x) {
    const std::string_view digits = std::string_view(s).substr(0, x);
    if (const NumberProblem p = parse_number(digits, kPlatformNodes, nodes); p != NumberProblem::kOk) {
      Accelerators refused;
      refused.problem = number_error("", digits, kPlatformNodes, p);
      return refused;
    }
  }
  Accelerators a;
  const auto per_node = [&](const char* kind, int64_t n) { a.kind = kind, a.count = static_cast<int>(n * nodes); };
  if (s.find("dgxa100") != std::string::npos) per_node("a100", 8);
  else if (s.find("dgx2") != std::string::npos) per_node("v100", 16);
  else if (s.find("dgx1") != std::string::npos) per_node("v100", 8);
  else a = accelerators_from_system(platform);
  return a;
}

class MlperfLogReader final : public TraceReader {
 public:
  int detect(std::string_view name, std::string_view first) const override {
    if (first.find(":::MLLOG") != std::string_view::npos || first.find(":::MLL ") != std::string_view::npos) return 10;
    return is_result_name(name) ? 4 : 0;
  }

  void read(ReadContext& ctx) override {
    namespace fs = std::filesystem;
    ctx.row();
    MlperfRun r;
    std::string platform, status;
    double start = NAN, stop = NAN;
    int64_t start_line = 0, stop_line = 0;
    LineReader in(ctx.file());
    std::string_view line;
    while (in.next(line)) {
      auto e = parse_mllog_line(line);
      if (!e) continue;
      auto str = [&]() { return e->value.is_string() ? e->value.as_string() : std::string(); };
      if (e->key == "submission_benchmark") r.benchmark = str();
      else if (e->key == "submission_org") r.org = str();
      else if (e->key == "submission_platform") platform = str();
      else if (e->key == "run_start" && std::isnan(start)) start = e->time_s, start_line = in.line_number();
      else if (e->key == "run_stop") stop = e->time_s, stop_line = in.line_number(), status = to_lower(e->meta_string("status"));
    }
    // <org>/results/<system>/<benchmark>/result_<k>.txt
    const fs::path p(ctx.file());
    std::vector<std::string> parts;
    for (const auto& part : p) parts.push_back(part.string());
    const std::string stem = p.stem().string();
    std::string run_index = starts_with(stem, "result_") ? stem.substr(7) : stem;
    const size_t n = parts.size();
    // The submitter's folder names the org as runs.csv does (the log may spell it otherwise).
    if (n >= 5 && parts[n - 4] == "results") {
      r.system = parts[n - 3];
      r.org = parts[n - 5];
      if (r.benchmark.empty()) r.benchmark = parts[n - 2];
    } else if (n >= 4 && parts[n - 3] == "results") {  // <org>/results/<system>/result_<k>.txt
      r.system = parts[n - 2];
      r.org = parts[n - 4];
    }
    for (const auto& part : parts)
      if (is_round(part)) r.round = part;
    if (r.system.empty()) r.system = platform;
    if (std::isnan(start) || std::isnan(stop)) {
      ctx.skip_row("log without run_start and run_stop");
      return;
    }
    if (start * 1000 < kMinEpochMs) {
      ctx.skip_row("start time not in epoch milliseconds");
      return;
    }
    if (r.benchmark.empty() || r.system.empty()) {
      ctx.bad_row(start_line, 0, "submission_benchmark", r.benchmark, "no benchmark or system in the log or its path");
      return;
    }
    // A run_stop before run_start is a damaged log, not a zero-length completed run.
    if (stop < start) {
      ctx.bad_row(stop_line, 0, "run_stop", format_number(stop),
                  "before run_start (" + format_number(start) + " s at line " + std::to_string(start_line) + ")");
      return;
    }
    // The system name first, then submission_platform; a GPU or TPU system whose count neither
    // states (or states out of range) is refused, never a 0-GPU job.
    Accelerators a = accelerators_from_system(r.system);
    bool from_platform = false;
    if (a.count == 0 && a.problem.empty() && !platform.empty()) {
      Accelerators p = accelerators_from_platform(platform);
      from_platform = p.count > 0 || !p.problem.empty() || a.kind.empty();
      if (from_platform) a = p;
    }
    if (!a.problem.empty() || (a.count == 0 && a.kind != "cpu")) {
      const bool platform_named = from_platform || (a.problem.empty() && !platform.empty());
      ctx.bad_row(start_line, 0, platform_named ? "submission_platform" : "system", platform_named ? platform : r.system,
                  a.problem.empty() ? "cannot tell the accelerator count from the system name or submission_platform"
                                    : a.problem);
      return;
    }
    r.kind = a.kind;
    r.accelerators = a.count;
    JobSpec j;
    const double whole = std::floor(start);
    j.submit_time = ctx.relative_time(static_cast<int64_t>(whole)) + (start - whole);
    j.duration = stop - start;
    j.id = (r.round.empty() ? std::string() : r.round + "/") + r.org + "/" + r.system + "/" + r.benchmark + "/" + run_index;
    j.user = r.org;
    j.name = mlperf_job_name(r);
    j.num_gpus = r.accelerators;
    j.gpu_type = r.kind;
    j.command = mlperf_command(r);
    j.state = status == "success" ? JobState::Completed
              : status.empty()    ? JobState::Unknown
                                  : JobState::Failed;
    ctx.emit(std::move(j));
  }
};

const bool registered = trace_reader_registry().add(
    "mlperf_log", "MLPerf Training result log (result_<k>.txt, :::MLLOG lines); one job per file",
    [] { return std::make_unique<MlperfLogReader>(); });

}  // namespace
}  // namespace mlsys::workload
