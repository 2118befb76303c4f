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

// Mean and sample standard deviation (n - 1 in the denominator; 0 for fewer than two values, and
// both 0 for none), e.g. a result over seeds reported as mean +- sd.
struct MeanSd {
  double mean = 0, sd = 0;
};
inline MeanSd mean_sd(const std::vector<double>& v) {
  MeanSd s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.sd += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(s.sd / static_cast<double>(v.size() - 1)) : 0;
  return s;
}

}  // namespace mlsys
