#include "sched/schedmate/eval/metrics.hpp"

#include <algorithm>
#include <set>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "sched/schedmate/tracker/template_miner.hpp"

namespace mlsys::schedmate {

Json ClassificationReport::to_json() const {
  Json j = Json::object();
  j["macro_f1"] = macro_f1;
  j["accuracy"] = accuracy;
  j["user_error_retries"] = user_error_retries;
  Json per = Json::object();
  for (auto& [k, v] : f1) per[k] = v;
  j["f1"] = per;
  return j;
}

ClassificationReport evaluate_classification(const std::vector<LogCase>& cases, Analyzer& analyzer) {
  ClassificationReport r;
  std::map<std::string, int> tp, fp, fn;
  int correct = 0;
  for (const auto& c : cases) {
    Diagnosis d = diagnose_log(analyzer, c.log.lines, c.name);
    const std::string truth = to_string(c.log.label), pred = to_string(d.category);
    if (truth == pred) {
      ++tp[truth];
      ++correct;
    } else {
      ++fp[pred];
      ++fn[truth];
      r.mistakes.push_back(c.name + ": " + truth + " -> " + pred);
    }
    if (is_user_error(c.log.label) &&
        (d.action == FailureAction::Resubmit || d.action == FailureAction::ResubmitExcludeNode))
      ++r.user_error_retries;
  }
  double sum = 0;
  int n = 0;
  for (FailureCategory cat : all_categories()) {
    const std::string k = to_string(cat);
    if (tp[k] + fn[k] == 0) continue;  // category absent from the truth
    double p = tp[k] + fp[k] > 0 ? static_cast<double>(tp[k]) / (tp[k] + fp[k]) : 0;
    double rc = static_cast<double>(tp[k]) / (tp[k] + fn[k]);
    double f = p + rc > 0 ? 2 * p * rc / (p + rc) : 0;
    r.f1[k] = f;
    sum += f;
    ++n;
  }
  r.macro_f1 = n ? sum / n : 0;
  r.accuracy = cases.empty() ? 0 : static_cast<double>(correct) / static_cast<double>(cases.size());
  return r;
}

Json TrackerReport::to_json() const {
  Json j = Json::object();
  j["runs"] = runs;
  j["max_remaining_error_at_5pct"] = max_remaining_error;
  j["mean_remaining_error_at_5pct"] = mean_remaining_error;
  j["stalls_expected"] = stalls_expected;
  j["stalls_flagged"] = stalls_flagged;
  j["max_stall_delay_in_gaps"] = max_stall_delay_gaps;
  return j;
}

TrackerReport evaluate_tracker(const std::vector<LogCase>& cases, const TrackerOptions& opt, double seen_fraction) {
  TrackerReport r;
  double sum = 0;
  for (const auto& c : cases) {
    const auto& g = c.log;
    if (c.spec.failure == FailureCategory::None) {
      MetricTracker tr(opt);
      const double run = g.full_run_end_t - g.first_step_t;
      bool judged = false;
      for (size_t i = 0; i < g.lines.size(); ++i) {
        tr.feed(g.lines[i]);
        if (g.times[i] - g.first_step_t < seen_fraction * run) continue;
        auto s = tr.snapshot();
        double truth = g.full_run_end_t - g.times[i];
        double err = std::isnan(s.remaining_s) ? 1.0 : std::abs(s.remaining_s - truth) / truth;
        if (std::isnan(s.remaining_s)) r.formats_unrecognised.push_back(c.name);
        r.max_remaining_error = std::max(r.max_remaining_error, err);
        sum += err;
        ++r.runs;
        judged = true;
        break;
      }
      if (!judged) r.formats_unrecognised.push_back(c.name);
    } else if (c.spec.failure == FailureCategory::NcclTimeout || c.spec.failure == FailureCategory::Hang) {
      // A hang: progress stops, then the watchdog (or the time limit) speaks hang_s later. Tick the clock through the
      // silence like a live follower would.
      MetricTracker tr(opt);
      size_t fail = static_cast<size_t>(g.failure_line);
      for (size_t i = 0; i < fail; ++i) tr.feed(g.lines[i]);
      ++r.stalls_expected;
      double last = tr.snapshot().last_progress_t, usual = tr.usual_gap();
      // Tick finely (a twentieth of the usual gap) so the measured delay is the tracker's, not the tick's.
      const double step = std::max(1e-3, usual / 20);
      for (double t = g.times[fail - 1]; t <= g.times[fail]; t += step) {
        if (tr.tick(t)) {
          ++r.stalls_flagged;
          r.max_stall_delay_gaps = std::max(r.max_stall_delay_gaps, (t - last) / usual);
          break;
        }
      }
    }
  }
  r.mean_remaining_error = r.runs ? sum / r.runs : 0;
  return r;
}

namespace {

// loghub's EventId: "E" and digits.
bool is_event_id(std::string_view f) {
  return f.size() > 1 && f[0] == 'E' && std::all_of(f.begin() + 1, f.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

MiningReport evaluate_mining(const std::string& path) {
  // Header: LineId,...,Content,EventId,EventTemplate. loghub leaves Content (and EventTemplate)
  // unquoted even when they hold commas, so Content runs from its column up to the first later
  // field that is an EventId followed by at least one more field.
  CsvReader in(path);
  in.read_header();
  const size_t content_col = static_cast<size_t>(in.require("Content"));
  TemplateMiner miner;
  std::vector<int> pred;
  std::vector<std::string> truth;
  std::set<std::string> truth_groups;
  while (in.next()) {
    const auto& f = in.fields();
    if (!in.complete()) throw InputError(in.where() + ": unclosed quote");
    if (f.size() < content_col + 3) throw InputError(in.where() + ": expected Content,EventId,EventTemplate");
    size_t e = content_col + 1;
    while (e + 1 < f.size() && !is_event_id(f[e])) ++e;
    if (e + 1 >= f.size()) throw InputError(in.where() + ": no EventId field");
    std::string content(f[content_col]);
    for (size_t k = content_col + 1; k < e; ++k) content += "," + std::string(f[k]);
    std::string event(f[e]);
    pred.push_back(miner.add(content));
    truth.push_back(event);
    truth_groups.insert(event);
  }
  MiningReport m;
  m.lines = pred.size();
  m.groups = miner.groups();
  m.truth_groups = truth_groups.size();
  m.grouping_accuracy = grouping_accuracy(pred, truth);
  return m;
}

}  // namespace mlsys::schedmate
