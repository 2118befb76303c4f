#include "sched/schedmate/eval/real_logs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/tracker/line_time.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"
#include "sched/workload/traces/mlperf.hpp"

namespace mlsys::schedmate {

namespace fs = std::filesystem;

FailureCategory category_for_label(const std::string& label) {
  const size_t slash = label.find('/');
  const std::string kind = label.substr(slash == std::string::npos ? 0 : slash + 1);
  if (kind.rfind("no_failure", 0) == 0) return FailureCategory::None;
  for (FailureCategory c : all_categories()) {
    const std::string name = to_string(c);
    const std::string short_name = name.substr(name.find('/') == std::string::npos ? 0 : name.find('/') + 1);
    if (c != FailureCategory::None && kind.rfind(short_name, 0) == 0) return c;
  }
  throw InputError("label '" + label + "' names no failure category");
}

namespace {

// The counts of a tqdm bar "n/total" (core/util/number_parse.hpp): a line whose counts are refused
// (digits past int64, a total of 0) states nothing.
constexpr IntRule kTqdmDone{"tqdm count", 0};
constexpr IntRule kTqdmTotal{"tqdm total", 1};

// What a tqdm line states about itself: n/total and its remaining time, read independently of the
// tracker's parser. False when the line does not state both.
bool tqdm_statement(const std::string& line, double& fraction, double& remaining) {
  const size_t lb = line.find(" [");
  if (lb == std::string::npos) return false;
  const size_t lt = line.find('<', lb), comma = lt == std::string::npos ? lt : line.find(',', lt);
  const size_t slash = line.rfind('/', lb);
  if (lt == std::string::npos || comma == std::string::npos || slash == std::string::npos) return false;
  size_t a0 = slash;
  while (a0 > 0 && std::isdigit(static_cast<unsigned char>(line[a0 - 1]))) --a0;
  const std::string n = line.substr(a0, slash - a0), total = std::string(trim(line.substr(slash + 1, lb - slash - 1)));
  if (n.empty() || total.empty() || !std::all_of(total.begin(), total.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  int64_t done = 0, of = 0;
  if (parse_number(n, kTqdmDone, done) != NumberProblem::kOk || parse_number(total, kTqdmTotal, of) != NumberProblem::kOk)
    return false;
  fraction = static_cast<double>(done) / static_cast<double>(of);
  return parse_clock(trim(line.substr(lt + 1, comma - lt - 1)), remaining);
}

}  // namespace

Json RealLogReport::to_json() const {
  Json j = Json::object();
  j["logs"] = logs;
  j["correct"] = correct;
  j["user_error_retries"] = user_error_retries;
  j["tqdm_lines"] = tqdm_lines;
  j["max_fraction_error"] = max_fraction_error;
  j["max_remaining_error"] = max_remaining_error;
  return j;
}

RealLogReport evaluate_labelled_logs(const std::string& folder, Analyzer& analyzer, const InputLimits& limits) {
  RealLogReport r;
  CsvReader labels((fs::path(folder) / "labels.csv").string());
  labels.read_header(true);
  const int file_col = labels.require("file", ""), label_col = labels.require("label", "");
  while (labels.next()) {
    const auto& f = labels.fields();
    if (static_cast<int>(f.size()) <= std::max(file_col, label_col)) continue;
    const std::string file(trim(f[static_cast<size_t>(file_col)])), label(trim(f[static_cast<size_t>(label_col)]));
    const FailureCategory truth = category_for_label(label);
    // The classifier never sees the curator's annotations.
    const LogText log = read_log(fs::path(folder) / file, limits, /*keep_annotations=*/false);
    Diagnosis d = diagnose_log(analyzer, log.lines, file);
    const bool ok = d.category == truth;
    ++r.logs;
    r.correct += ok;
    if (is_user_error(d.category) && (d.action == FailureAction::Resubmit || d.action == FailureAction::ResubmitExcludeNode))
      ++r.user_error_retries;
    r.table.add_row({file, std::string(to_string(truth)), std::string(to_string(d.category)), std::string(to_string(d.action)),
                     d.evidence_line, d.evidence, static_cast<int64_t>(ok)});
    MetricTracker tr;
    for (const auto& line : log.lines) {
      tr.feed(line);
      double fraction = 0, remaining = 0;
      if (!tqdm_statement(line, fraction, remaining)) continue;
      const TrackerSnapshot s = tr.snapshot();
      ++r.tqdm_lines;
      const double fe = std::isnan(s.fraction) ? 1.0 : std::abs(s.fraction - fraction) / std::max(fraction, 1e-12);
      const double re = std::isnan(s.remaining_s) ? 1.0 : std::abs(s.remaining_s - remaining) / std::max(remaining, 1.0);
      r.max_fraction_error = std::max(r.max_fraction_error, fe);
      r.max_remaining_error = std::max(r.max_remaining_error, re);
    }
  }
  return r;
}

std::vector<std::string> hide_run_status(std::vector<std::string> lines) {
  for (auto& line : lines) {
    const size_t marker = line.find(":::MLL");
    if (marker == std::string::npos) continue;
    const auto e = workload::parse_mllog_line(line);
    if (!e || e->key != "run_stop") continue;
    // Rewritten from the parsed event, so no spelling of the status survives (v0.6 and v0.7 lines).
    Json j = Json::object();
    j["key"] = "run_stop";
    if (!std::isnan(e->time_s)) j["time_ms"] = e->time_s * 1000.0;
    j["value"] = nullptr;
    j["metadata"] = Json::object();
    line = line.substr(0, marker) + ":::MLLOG " + j.dump();
  }
  return lines;
}

Json MlperfLogReport::to_json() const {
  Json j = Json::object();
  j["run_status_hidden"] = true;
  j["aborted"] = aborted;
  j["aborted_explained"] = aborted_explained;
  j["succeeded"] = succeeded;
  j["succeeded_clean"] = succeeded_clean;
  j["aborted_explained_status_visible"] = aborted_explained_visible;
  j["succeeded_clean_status_visible"] = succeeded_clean_visible;
  return j;
}

MlperfLogReport evaluate_mlperf_logs(const std::string& folder, const std::string& runs_csv, Analyzer& analyzer,
                                     const InputLimits& limits) {
  if (runs_csv.empty()) throw ConfigError("schedmate.evaluate.mlperf_logs needs schedmate.evaluate.mlperf_runs (runs.csv)");
  std::map<std::string, std::string> status_of;  // log_path (in the results repository) -> status
  CsvReader runs(runs_csv);
  runs.read_header(true);
  const int path_col = runs.require("log_path", ""), status_col = runs.require("status", "");
  while (runs.next()) {
    const auto& f = runs.fields();
    if (static_cast<int>(f.size()) > std::max(path_col, status_col))
      status_of[std::string(f[static_cast<size_t>(path_col)])] = std::string(f[static_cast<size_t>(status_col)]);
  }
  std::vector<fs::path> logs;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file() && e.path().filename().string().rfind("result_", 0) == 0) logs.push_back(e.path());
  std::sort(logs.begin(), logs.end());
  if (logs.empty()) throw Error(folder + ": no MLPerf result_<k>.txt logs below this folder");
  MlperfLogReport r;
  for (const auto& p : logs) {
    const std::string rel = fs::relative(p, folder).generic_string();
    std::string status;
    for (const auto& [path, st] : status_of)
      if (rel.size() >= path.size() && rel.compare(rel.size() - path.size(), path.size(), path) == 0) status = st;
    if (status != "success" && status != "aborted") continue;  // no truth for this log
    const LogText log = read_log(p, limits, false);
    const Diagnosis d = diagnose_log(analyzer, hide_run_status(log.lines), rel);
    const Diagnosis v = diagnose_log(analyzer, log.lines, rel);
    auto explained = [](const Diagnosis& x) {
      return x.category != FailureCategory::None && x.category != FailureCategory::Unknown;
    };
    if (status == "aborted") {
      ++r.aborted;
      r.aborted_explained += explained(d);
      r.aborted_explained_visible += explained(v);
    } else {
      ++r.succeeded;
      r.succeeded_clean += d.category == FailureCategory::None;
      r.succeeded_clean_visible += v.category == FailureCategory::None;
    }
    r.table.add_row({rel, status, std::string(to_string(d.category)), std::string(to_string(d.action)), d.evidence_line,
                     d.evidence.substr(0, 160), std::string(to_string(v.category))});
  }
  return r;
}

}  // namespace mlsys::schedmate
