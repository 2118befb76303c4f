#pragma once
// Progress for log formats no built-in parser knows: mine templates over the first lines and keep
// the template whose parameter rises like a step counter (and, if present, one that stays constant
// above it: the total). Afterwards each line is checked against that one template.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/json.hpp"

namespace mlsys::schedmate {

struct LearnedPattern {
  std::vector<std::string> tokens;  // template tokens, "<*>" (or "key=<*>") at parameters
  int counter = -1;                 // token index of the step counter
  int total = -1;                   // token index of the total, -1 when absent
  std::string source = "embedded";  // which analyzer proposed it
  std::string text() const;
  Json to_json() const;
};

// Embedded learner: Drain over `sample`, then the counter heuristics above.
std::optional<LearnedPattern> learn_pattern(const std::vector<std::string>& sample);

// Fills `done`/`total` (NaN when the pattern has no total) for a matching line.
bool match_pattern(const LearnedPattern& p, std::string_view line, double& done, double& total);

// The pattern's template built from one example line and the counter/total token positions
// (used by analyzers that answer with positions).
std::optional<LearnedPattern> pattern_from_positions(const std::vector<std::string>& sample, int counter, int total);

}  // namespace mlsys::schedmate
