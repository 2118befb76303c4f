#include "sched/schedmate/failure/failure_handler.hpp"

#include "core/util/strings.hpp"
#include "sched/schedmate/failure/failure_rules.hpp"

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

Diagnosis diagnose_lines(const std::vector<std::string>& lines, bool stalled) {
  Diagnosis d;
  const FailureRule* best = nullptr;
  int64_t generic_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
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
  if (best) {
    d.category = best->category;
  } else if (generic_line > 0) {
    d.category = FailureCategory::Unknown;
    d.evidence = clip(lines[static_cast<size_t>(generic_line - 1)]);
    d.evidence_line = generic_line;
  } else if (stalled) {
    d.category = FailureCategory::Unknown;
    d.evidence = lines.empty() ? std::string() : clip(lines.back());
    d.evidence_line = static_cast<int64_t>(lines.size());
  }
  finalize_diagnosis(d);
  return d;
}

Diagnosis diagnose_text(std::string_view text, bool stalled) { return diagnose_lines(split_lines(text), stalled); }

}  // namespace mlsys::schedmate
