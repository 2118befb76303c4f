#pragma once
// A Drain-style online template miner (He et al., ICWS'17): lines are grouped by token count, then
// by their first tokens in a fixed-depth prefix tree, then by token-wise similarity to each
// group's template; a group's template keeps the tokens all its lines share and `<*>` elsewhere.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlsys::schedmate {

struct MinerOptions {
  double similarity = 0.5;  // a line joins a group when this share of its tokens equal the template
  int depth = 4;            // prefix-tree depth (length level + depth-2 token levels)
  int max_children = 100;
  bool mask_assignments = true;  // "key=123" -> "key=<*>" before matching
  bool mask_numbers = true;      // tokens that are plain numbers -> "<*>"
};

class TemplateMiner {
 public:
  explicit TemplateMiner(MinerOptions opt = {});
  ~TemplateMiner();
  TemplateMiner(const TemplateMiner&) = delete;
  TemplateMiner& operator=(const TemplateMiner&) = delete;

  // Adds a line; returns its group id (0-based, stable).
  int add(std::string_view line);
  size_t groups() const { return templates_.size(); }
  std::string template_text(int group) const;
  const std::vector<std::string>& template_tokens(int group) const { return templates_[static_cast<size_t>(group)].tokens; }
  size_t group_size(int group) const { return templates_[static_cast<size_t>(group)].size; }

  // The line as the miner sees it (masked, split on blanks).
  std::vector<std::string> tokenize(std::string_view line) const;

 private:
  struct Group {
    std::vector<std::string> tokens;
    size_t size = 0;
  };
  struct Node;
  int match(const std::vector<int>& candidates, const std::vector<std::string>& toks) const;
  MinerOptions opt_;
  std::vector<Group> templates_;
  std::unique_ptr<Node> root_;
};

// Share of lines whose predicted group holds exactly the lines of their true group (the "grouping
// accuracy" of the loghub benchmark). Both vectors are per line.
double grouping_accuracy(const std::vector<int>& predicted, const std::vector<std::string>& truth);

// Does `token` fit a template token that may hold one `<*>` wildcard ("it=<*>")?
bool token_matches(std::string_view templ, std::string_view token);

}  // namespace mlsys::schedmate
