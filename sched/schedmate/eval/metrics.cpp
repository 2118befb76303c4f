#include "sched/schedmate/eval/metrics.hpp"

#include <algorithm>
#include <set>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
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
    Diagnosis d = analyzer.diagnose(c.log.lines, false, c.name);
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
    } else if (c.spec.failure == FailureCategory::NcclTimeout) {
      // A hang: progress stops, then the watchdog speaks hang_s later. Tick the clock through the
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

MiningReport evaluate_mining(const std::string& path) {
  std::string text = read_file(path);
  auto lines = split_lines(text);
  if (lines.empty()) throw InputError(path + ": empty");
  // Header: LineId,...,Content,EventId,EventTemplate. Content may hold commas, so take the last two
  // fields from the right and the content between the 7th comma and them.
  std::vector<std::string> header = split(lines[0], ',');
  auto col = std::find(header.begin(), header.end(), "Content");
  if (col == header.end()) throw InputError(path + ":1: no Content column");
  const size_t content_col = static_cast<size_t>(col - header.begin());
  TemplateMiner miner;
  std::vector<int> pred;
  std::vector<std::string> truth;
  std::set<std::string> truth_groups;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.empty()) continue;
    size_t p = 0;
    for (size_t k = 0; k < content_col && p != std::string::npos; ++k) p = l.find(',', p) + 1;
    size_t last = l.rfind(',');
    size_t prev = last == std::string::npos ? std::string::npos : l.rfind(',', last - 1);
    if (p == 0 || prev == std::string::npos || prev < p)
      throw InputError(path + ":" + std::to_string(i + 1) + ": expected Content,EventId,EventTemplate");
    // EventTemplate may contain commas too: find EventId as the field right after Content.
    std::string rest = l.substr(p);
    // Content never contains ",E<digits>," in loghub's HPC data; locate the EventId by that pattern.
    size_t e = std::string::npos;
    for (size_t q = rest.find(",E"); q != std::string::npos; q = rest.find(",E", q + 1)) {
      size_t r2 = q + 2;
      while (r2 < rest.size() && isdigit(static_cast<unsigned char>(rest[r2]))) ++r2;
      if (r2 > q + 2 && r2 < rest.size() && rest[r2] == ',') {
        e = q;
        break;
      }
    }
    if (e == std::string::npos) throw InputError(path + ":" + std::to_string(i + 1) + ": no EventId field");
    std::string content = rest.substr(0, e);
    if (content.size() >= 2 && content.front() == '"' && content.back() == '"') content = content.substr(1, content.size() - 2);
    size_t idend = rest.find(',', e + 1);
    std::string event = rest.substr(e + 1, idend - e - 1);
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
