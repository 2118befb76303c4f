#include "sched/schedmate/failure/failure_handler.hpp"

#include "core/util/strings.hpp"
#include "sched/schedmate/failure/failure_rules.hpp"
#include "sched/workload/traces/mlperf.hpp"

namespace mlsys::schedmate {

namespace {
constexpr size_t kMaxEvidence = 300;

std::string clip(std::string_view line) {
  auto t = trim(line);
  std::string s(t.substr(0, kMaxEvidence));
  return s;
}
}  // namespace

Json Diagnosis::to_json() const {
  Json j = Json::object();
  j["category"] = to_string(category);
  j["action"] = to_string(action);
  j["evidence_line"] = evidence_line;
  j["evidence"] = evidence;
  j["advice"] = advice;
  j["source"] = source;
  return j;
}

void finalize_diagnosis(Diagnosis& d) {
  d.action = action_for(d.category);
  d.advice = advice_for(d.category);
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    pos = nl + 1;
  }
  return out;
}

Diagnosis diagnose_lines(const std::vector<std::string>& lines, const RunEvidence& run) {
  Diagnosis d;
  const FailureRule* best = nullptr;
  int64_t generic_line = 0, run_stop_line = 0, eval_line = 0;
  std::string run_status;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(":::MLL") != std::string::npos) {
      // MLPerf logs state how the run ended.
      if (auto e = workload::parse_mllog_line(lines[i]); e && e->key == "run_stop") {
        run_status = to_lower(e->meta_string("status"));
        run_stop_line = static_cast<int64_t>(i + 1);
      } else if (e && e->key == "eval_accuracy") {
        eval_line = static_cast<int64_t>(i + 1);
      }
      continue;  // MLLOG payloads are data (file names, values), not messages
    }
    const std::string n = normalize_line(lines[i]);
    if (n.empty()) continue;
    const FailureRule* r = match_failure_rule(n);
    // The first line of the strongest category is the root cause; later repeats are echoes.
    if (r && (!best || r->priority > best->priority)) {
      best = r;
      d.evidence = clip(lines[i]);
      d.evidence_line = static_cast<int64_t>(i + 1);
    } else if (!r && generic_line == 0 && looks_like_error(n)) {
      generic_line = static_cast<int64_t>(i + 1);
    }
  }
  auto evidence_at = [&](int64_t line) {
    d.evidence_line = line;
    d.evidence = line > 0 ? clip(lines[static_cast<size_t>(line - 1)]) : std::string();
  };
  // A run_stop without a status: the last evaluation against the target says how the run ended.
  const bool judged = run_stop_line > 0 && run_status.empty() && eval_line > 0 && !std::isnan(run.quality) &&
                      !std::isnan(run.quality_target);
  const bool reached = judged && run.quality >= run.quality_target;
  if (run_status == "success" || reached) {
    d = Diagnosis{};
  } else if (best) {
    d.category = best->category;
  } else if (judged) {
    d.category = FailureCategory::NotConverged;
    evidence_at(eval_line);
  } else if (run_stop_line > 0 && !run_status.empty()) {
    d.category = FailureCategory::NotConverged;
    evidence_at(run_stop_line);
  } else if (run.stalled) {
    d.category = FailureCategory::Hang;
    evidence_at(generic_line > 0 ? generic_line : static_cast<int64_t>(lines.size()));
  } else if (generic_line > 0) {
    d.category = run.progressed ? FailureCategory::CrashAfterProgress : FailureCategory::Unknown;
    evidence_at(generic_line);
  }
  finalize_diagnosis(d);
  return d;
}

Diagnosis diagnose_text(std::string_view text, const RunEvidence& run) { return diagnose_lines(split_lines(text), run); }

}  // namespace mlsys::schedmate
