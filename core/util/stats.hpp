#pragma once
// Summary statistics shared by result tables.
#include <algorithm>
#include <cmath>
#include <vector>

namespace mlsys {

// Quantile p in [0, 1] of ascending-sorted, non-empty values, linearly interpolated between the
// two nearest ranks (numpy's default, so tables can be checked against it).
inline double quantile_sorted(const std::vector<double>& sorted, double p) {
  double pos = p * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace mlsys
