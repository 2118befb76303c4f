#include "sched/schedmate/tracker/template_miner.hpp"

#include <algorithm>
#include <unordered_map>

namespace mlsys::schedmate {

namespace {
const std::string kWild = "<*>";

bool has_digit(std::string_view s) {
  for (char c : s)
    if (c >= '0' && c <= '9') return true;
  return false;
}

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  bool digit = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') digit = true;
    else if (c != '.' && c != ',' && c != ':' && c != 'x' && !(c >= 'a' && c <= 'f')) return false;
  }
  return digit;
}
}  // namespace

struct TemplateMiner::Node {
  std::unordered_map<std::string, std::unique_ptr<Node>> children;
  std::vector<int> groups;
};

TemplateMiner::TemplateMiner(MinerOptions opt) : opt_(opt), root_(std::make_unique<Node>()) {}
TemplateMiner::~TemplateMiner() = default;

std::vector<std::string> TemplateMiner::tokenize(std::string_view line) const {
  std::vector<std::string> toks;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t s = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i == s) break;
    std::string tok(line.substr(s, i - s));
    if (opt_.mask_numbers && is_number(tok)) {
      tok = kWild;
    } else if (opt_.mask_assignments) {
      size_t eq = tok.find('=');
      if (eq != std::string::npos && eq + 1 < tok.size() && tok[eq + 1] >= '0' && tok[eq + 1] <= '9') {
        size_t e = eq + 1;
        while (e < tok.size() && tok[e] >= '0' && tok[e] <= '9') ++e;
        tok = tok.substr(0, eq + 1) + kWild + tok.substr(e);
      }
    }
    toks.push_back(std::move(tok));
  }
  return toks;
}

int TemplateMiner::match(const std::vector<int>& candidates, const std::vector<std::string>& toks) const {
  int best = -1;
  double best_sim = -1;
  int best_params = -1;
  for (int g : candidates) {
    const auto& t = templates_[static_cast<size_t>(g)].tokens;
    int same = 0, params = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == kWild) ++params;
      else if (t[i] == toks[i]) ++same;
    }
    double sim = toks.empty() ? 1.0 : static_cast<double>(same) / static_cast<double>(toks.size());
    if (sim > best_sim || (sim == best_sim && params > best_params)) {
      best = g;
      best_sim = sim;
      best_params = params;
    }
  }
  return best_sim >= opt_.similarity ? best : -1;
}

int TemplateMiner::add(std::string_view line) {
  std::vector<std::string> toks = tokenize(line);
  Node* node = root_.get();
  auto descend = [&](const std::string& key) {
    auto it = node->children.find(key);
    if (it != node->children.end()) return it->second.get();
    // A full level sends new keys to the wildcard child, which bounds the tree's width.
    if (static_cast<int>(node->children.size()) >= opt_.max_children && key != kWild) {
      auto w = node->children.find(kWild);
      if (w != node->children.end()) return w->second.get();
      auto& slot = node->children[kWild];
      slot = std::make_unique<Node>();
      return slot.get();
    }
    auto& slot = node->children[key];
    slot = std::make_unique<Node>();
    return slot.get();
  };
  node = descend(std::to_string(toks.size()));
  const size_t levels = static_cast<size_t>(std::max(0, opt_.depth - 2));
  for (size_t d = 0; d < levels && d < toks.size(); ++d) node = descend(has_digit(toks[d]) ? kWild : toks[d]);
  int g = match(node->groups, toks);
  if (g < 0) {
    g = static_cast<int>(templates_.size());
    templates_.push_back(Group{toks, 1});
    node->groups.push_back(g);
    return g;
  }
  auto& t = templates_[static_cast<size_t>(g)];
  for (size_t i = 0; i < t.tokens.size(); ++i)
    if (t.tokens[i] != toks[i]) t.tokens[i] = kWild;
  ++t.size;
  return g;
}

std::string TemplateMiner::template_text(int group) const {
  std::string out;
  for (const auto& t : templates_[static_cast<size_t>(group)].tokens) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

double grouping_accuracy(const std::vector<int>& predicted, const std::vector<std::string>& truth) {
  if (predicted.empty() || predicted.size() != truth.size()) return 0;
  std::unordered_map<int, std::vector<size_t>> by_pred;
  std::unordered_map<std::string, size_t> truth_count;
  for (size_t i = 0; i < predicted.size(); ++i) {
    by_pred[predicted[i]].push_back(i);
    ++truth_count[truth[i]];
  }
  size_t correct = 0;
  for (auto& [g, idx] : by_pred) {
    const std::string& t0 = truth[idx.front()];
    bool pure = std::all_of(idx.begin(), idx.end(), [&](size_t i) { return truth[i] == t0; });
    if (pure && truth_count[t0] == idx.size()) correct += idx.size();
  }
  return static_cast<double>(correct) / static_cast<double>(predicted.size());
}

bool token_matches(std::string_view templ, std::string_view token) {
  size_t w = templ.find(kWild);
  if (w == std::string_view::npos) return templ == token;
  std::string_view pre = templ.substr(0, w), post = templ.substr(w + kWild.size());
  return token.size() >= pre.size() + post.size() && token.substr(0, pre.size()) == pre &&
         token.substr(token.size() - post.size()) == post;
}

}  // namespace mlsys::schedmate
