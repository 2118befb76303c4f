#include "sched/schedmate/tracker/learned_format.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sched/schedmate/tracker/line_time.hpp"
#include "sched/schedmate/tracker/progress_parsers.hpp"
#include "sched/schedmate/tracker/template_miner.hpp"

namespace mlsys::schedmate {

namespace {
constexpr size_t kMinLines = 5;

std::string_view strip_time(std::string_view line) {
  LineTime lt = parse_line_time(line);
  return lt.found ? line.substr(lt.end) : line;
}

// Splits on blanks without masking (the pattern's own tokens say where parameters are).
std::vector<std::string_view> raw_tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t s = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > s) out.push_back(line.substr(s, i - s));
  }
  return out;
}
}  // namespace

std::string LearnedPattern::text() const {
  std::string out;
  for (const auto& t : tokens) out += (out.empty() ? "" : " ") + t;
  return out;
}

Json LearnedPattern::to_json() const {
  Json j = Json::object();
  j["template"] = text();
  j["counter_token"] = counter;
  j["total_token"] = total;
  j["source"] = source;
  return j;
}

bool match_pattern(const LearnedPattern& p, std::string_view line, double& done, double& total) {
  auto toks = raw_tokens(strip_time(line));
  if (toks.size() != p.tokens.size()) return false;
  for (size_t i = 0; i < toks.size(); ++i)
    if (!token_matches(p.tokens[i], toks[i])) return false;
  if (!first_number(toks[static_cast<size_t>(p.counter)], done)) return false;
  total = NAN;
  if (p.total >= 0 && !first_number(toks[static_cast<size_t>(p.total)], total)) total = NAN;
  return true;
}

std::optional<LearnedPattern> learn_pattern(const std::vector<std::string>& sample) {
  TemplateMiner miner;
  std::vector<int> group_of;
  for (const auto& l : sample) group_of.push_back(miner.add(strip_time(l)));
  std::optional<LearnedPattern> best;
  size_t best_lines = 0;
  for (int g = 0; g < static_cast<int>(miner.groups()); ++g) {
    if (miner.group_size(g) < kMinLines || miner.group_size(g) <= best_lines) continue;
    const auto& tmpl = miner.template_tokens(g);
    // Numbers at each parameter position, in line order.
    std::map<size_t, std::vector<double>> series;
    for (size_t li = 0; li < sample.size(); ++li) {
      if (group_of[li] != g) continue;
      auto toks = raw_tokens(strip_time(sample[li]));
      if (toks.size() != tmpl.size()) continue;
      for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i].find("<*>") == std::string::npos) continue;
        double v = 0;
        if (first_number(toks[i], v)) series[i].push_back(v);
      }
    }
    int counter = -1, total = -1;
    double counter_max = 0;
    for (auto& [pos, vals] : series) {
      if (vals.size() < kMinLines) continue;
      size_t up = 0, down = 0;
      std::set<double> distinct(vals.begin(), vals.end());
      for (size_t i = 1; i < vals.size(); ++i) {
        if (vals[i] > vals[i - 1]) ++up;
        if (vals[i] < vals[i - 1]) ++down;
      }
      bool integral = std::all_of(vals.begin(), vals.end(), [](double v) { return v == std::floor(v); });
      if (counter < 0 && integral && down == 0 && up * 2 >= vals.size() && distinct.size() >= 3) {
        counter = static_cast<int>(pos);
        counter_max = vals.back();
      }
    }
    if (counter < 0) continue;
    // A total is a parameter that is constant over the group and not below the counter.
    for (auto& [pos, vals] : series) {
      if (static_cast<int>(pos) == counter || vals.size() < kMinLines) continue;
      std::set<double> distinct(vals.begin(), vals.end());
      if (distinct.size() == 1 && *distinct.begin() >= counter_max && *distinct.begin() == std::floor(*distinct.begin())) {
        total = static_cast<int>(pos);
        break;
      }
    }
    // Constant parameters (the total) become literal in the template of a tiny sample; keep them
    // as wildcards so later lines still match.
    LearnedPattern p{tmpl, counter, total, "embedded"};
    best = p;
    best_lines = miner.group_size(g);
  }
  if (best && best->total < 0) {
    // The miner keeps a constant total literal; look for a literal integer token after the counter.
    for (size_t i = static_cast<size_t>(best->counter) + 1; i < best->tokens.size(); ++i) {
      double v = 0;
      const auto& t = best->tokens[i];
      if (t.find("<*>") == std::string::npos && first_number(t, v) && v > 0) {
        size_t d = t.find_first_of("0123456789");
        size_t e = t.find_last_of("0123456789");
        best->tokens[i] = t.substr(0, d) + "<*>" + t.substr(e + 1);
        best->total = static_cast<int>(i);
        break;
      }
    }
  }
  return best;
}

std::optional<LearnedPattern> pattern_from_positions(const std::vector<std::string>& sample, int counter, int total) {
  if (sample.empty() || counter < 0) return std::nullopt;
  auto toks = raw_tokens(strip_time(sample.front()));
  if (static_cast<size_t>(counter) >= toks.size() || (total >= 0 && static_cast<size_t>(total) >= toks.size()))
    return std::nullopt;
  LearnedPattern p;
  for (size_t i = 0; i < toks.size(); ++i) {
    std::string t(toks[i]);
    bool param = static_cast<int>(i) == counter || static_cast<int>(i) == total;
    // Any number-bearing token may vary between lines (loss, lr): make it a wildcard.
    size_t d = t.find_first_of("0123456789");
    if (param || d != std::string::npos) {
      if (d == std::string::npos) return std::nullopt;
      size_t e = t.find_last_of("0123456789");
      t = t.substr(0, d) + "<*>" + t.substr(e + 1);
    }
    p.tokens.push_back(t);
  }
  p.counter = counter;
  p.total = total;
  return p;
}

}  // namespace mlsys::schedmate
