#pragma once
// The rounding rules of the per-row min/scale format (rounding_rule.hpp says what a rule is): the
// list the build collected from rounding/*.hpp, what the codecs read of each at run time, and the
// kernels' step from a rule's index (how codecs and the CUDA table name a rule) to its type.
#include <array>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/quant/rounding_rule.hpp"
#include "core/quant/rounding_rule_list.hpp"  // generated: using RoundingRules = RuleList<...>

namespace mlsys::quant {

struct RoundingRuleInfo {
  const char* prefix;
  bool stochastic;
  const RuleWidth* widths;
  size_t width_count;
};

template <class... R>
constexpr std::array<RoundingRuleInfo, sizeof...(R)> rounding_rule_infos(RuleList<R...>) {
  return {{{R::kPrefix, R::kStochastic, R::kWidths, std::size(R::kWidths)}...}};
}
// Indexed like RoundingRules (file name order of rounding/).
inline constexpr auto kRoundingRules = rounding_rule_infos(RoundingRules{});

template <class Rule, class... R>
constexpr int rounding_rule_index(RuleList<R...>) {
  int i = 0, found = -1;
  ((std::is_same_v<Rule, R> ? found = i : 0, ++i), ...);
  return found;
}
// The index that names Rule to the kernels.
template <class Rule>
inline constexpr int kRuleIndex = rounding_rule_index<Rule>(RoundingRules{});

// fn(Rule{}) for the rule of index `rule`; std::logic_error for an index no rule has.
template <class Fn, class... R>
void with_rounding_rule(int rule, Fn&& fn, RuleList<R...>) {
  int i = 0;
  const bool called = ((i++ == rule ? (fn(R{}), true) : false) || ...);
  if (!called) throw std::logic_error("no rounding rule has index " + std::to_string(rule));
}
template <class Fn>
void with_rounding_rule(int rule, Fn&& fn) {
  with_rounding_rule(rule, static_cast<Fn&&>(fn), RoundingRules{});
}

}  // namespace mlsys::quant
