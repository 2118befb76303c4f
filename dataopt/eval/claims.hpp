#pragma once
// The comparison's claims ("method A beats method B"), judged on paired runs over seeds. Seed s of
// every method shares the few-label subset and the student's initialization, so the per-seed
// difference cancels the label draw, the largest source of spread in a single row's accuracy.
#include <string>
#include <vector>

#include "core/util/stats.hpp"

namespace mlsys::dataopt {

// Fewer seeds cannot give a spread worth the name; a claim judged on fewer never holds.
inline constexpr int kClaimMinSeeds = 3;

struct Claim {
  std::string name;            // key in summary.json, e.g. "aligned_beats_unaligned"
  std::string better, worse;   // coopt.eval.methods names
};

// The claims compare mode judges (each one when both of its methods are among coopt.eval.methods).
const std::vector<Claim>& comparison_claims();

struct ClaimVerdict {
  std::vector<double> gains;  // better - worse per seed, accuracy points
  MeanSd gain;
  bool holds = false;
  std::string reason;  // one line: why it holds or not
};

// Accuracies in [0, 1], one per seed, paired by position. The claim holds when there are at least
// kClaimMinSeeds seeds, the mean gain is at least `min_gain` points and larger than its own sample
// sd over seeds (so one lucky seed cannot carry it).
ClaimVerdict judge_claim(const std::vector<double>& better, const std::vector<double>& worse, double min_gain);

}  // namespace mlsys::dataopt
