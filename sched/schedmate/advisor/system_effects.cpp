#include "sched/schedmate/advisor/system_effects.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>

namespace mlsys::schedmate {

namespace {

// Backfitting sweeps: each sweep refits every effect to what the others leave; the cells are few
// (hundreds), and the fit has settled to well below a percent of duration by then.
constexpr int kSweeps = 100;
// A floor on the spread of a transferred estimate: repeated runs of one configuration differ too.
constexpr double kMinSigma = 0.05;
// Extra spread when the platform has no finished run of any workload (its own speed is unknown).
constexpr double kNewPlatformSigma = 0.2;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string fmt(const char* f, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

size_t SystemEffects::index_of(std::map<std::string, size_t>& ids, const std::string& name) {
  return ids.emplace(name, ids.size()).first->second;
}

void SystemEffects::add(const std::string& workload, const PlatformFacts& pf, double log_duration) {
  const size_t w = index_of(workload_ids_, workload);
  const size_t p = index_of(platform_ids_, pf.platform);
  if (p == platforms_.size()) {
    Platform pl;
    pl.facts = pf;
    for (size_t f = 0; f < kFactors; ++f) pl.level[f] = index_of(factors_[f].ids, pf.*factors_[f].field);
    pl.has_count = pf.count > 0;
    pl.log_count = pl.has_count ? std::log(static_cast<double>(pf.count)) : 0;
    platforms_.push_back(std::move(pl));
  }
  auto [it, fresh] = cell_of_.emplace(std::make_pair(w, p), cells_.size());
  if (fresh) {
    cells_.push_back(Cell{w, p, {}, 0});
    ++platforms_[p].cells;
  }
  Cell& c = cells_[it->second];
  c.log_duration.push_back(log_duration);
  c.y = median_of(c.log_duration);
  fitted_ = false;
}

double SystemEffects::scale_term(size_t w, const Platform& p) const {
  // A platform whose count is unknown (or a CPU system) is taken at the workload's average scale.
  if (!opt_.use_count || !p.has_count) return 0;
  // The curvature is trusted only as far from a workload's mean count as the fitted cells were:
  // beyond that its square would grow without evidence (a count far outside the fit once gave
  // e^25). The slope still carries the scaling out there.
  const double d = p.log_count - mean_log_count_[w];
  return slope_[w] * d + curvature_ * (std::min(d * d, max_sq_) - mean_sq_[w]);
}

double SystemEffects::shared_effects(const Platform& p) const {
  double s = 0;
  for (size_t f = 0; f < kFactors; ++f) s += factors_[f].effect[p.level[f]];
  return s;
}

void SystemEffects::fit() const {
  if (fitted_) return;
  const size_t W = workload_ids_.size(), P = platforms_.size();
  mean_.assign(W, 0);
  slope_.assign(W, opt_.slope_prior);
  mean_log_count_.assign(W, 0);
  mean_sq_.assign(W, 0);
  platform_.assign(P, 0);
  workload_cells_.assign(W, 0);
  shared_slope_ = opt_.slope_prior;
  curvature_ = 0;
  for (const auto& f : factors_) f.effect.assign(f.ids.size(), 0), f.cells.assign(f.ids.size(), 0);
  std::vector<int> counted(W, 0);
  for (const Cell& c : cells_) {
    const Platform& p = platforms_[c.platform];
    ++workload_cells_[c.workload];
    for (size_t f = 0; f < kFactors; ++f) ++factors_[f].cells[p.level[f]];
    if (p.has_count) mean_log_count_[c.workload] += p.log_count, ++counted[c.workload];
  }
  for (size_t w = 0; w < W; ++w)
    if (counted[w] > 0) mean_log_count_[w] /= counted[w];
  max_sq_ = 0;
  for (const Cell& c : cells_)
    if (const Platform& p = platforms_[c.platform]; p.has_count) {
      const double sq = std::pow(p.log_count - mean_log_count_[c.workload], 2);
      mean_sq_[c.workload] += sq / counted[c.workload];
      max_sq_ = std::max(max_sq_, sq);
    }
  // The fitted value of cell c; each step below refits one part to what the rest leave.
  auto fitted = [&](const Cell& c) {
    const Platform& p = platforms_[c.platform];
    return mean_[c.workload] + scale_term(c.workload, p) + shared_effects(p) + platform_[c.platform];
  };
  std::vector<double> num, den;
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    // Workload means (not shrunk: every workload in the fit has cells).
    num.assign(W, 0);
    for (const Cell& c : cells_) num[c.workload] += c.y - fitted(c) + mean_[c.workload];
    for (size_t w = 0; w < W; ++w) mean_[w] = num[w] / workload_cells_[w];
    // Slopes, each toward the shared one; the shared one toward the prior; the shared curvature.
    if (opt_.use_count) {
      num.assign(W, 0), den.assign(W, 0);
      for (const Cell& c : cells_) {
        const Platform& p = platforms_[c.platform];
        if (!p.has_count) continue;
        const double d = p.log_count - mean_log_count_[c.workload];
        num[c.workload] += d * (c.y - fitted(c) + slope_[c.workload] * d);
        den[c.workload] += d * d;
      }
      double sum = 0;
      for (size_t w = 0; w < W; ++w) {
        slope_[w] = (num[w] + opt_.slope_penalty * shared_slope_) / (den[w] + opt_.slope_penalty);
        sum += slope_[w];
      }
      shared_slope_ = (sum + opt_.shared_slope_penalty * opt_.slope_prior) /
                      (static_cast<double>(W) + opt_.shared_slope_penalty);
      double cn = 0, cd = 0;
      for (const Cell& c : cells_) {
        const Platform& p = platforms_[c.platform];
        if (!p.has_count) continue;
        const double d = p.log_count - mean_log_count_[c.workload], q = d * d - mean_sq_[c.workload];
        cn += q * (c.y - fitted(c) + curvature_ * q);
        cd += q * q;
      }
      curvature_ = cn / (cd + opt_.curvature_penalty);
    }
    // Kind, user and software effects, then the platform's own, each shrunk toward 0. A fact not
    // stated ("" kind or software) has no effect.
    for (size_t f = 0; f < kFactors; ++f) {
      const Factor& fa = factors_[f];
      num.assign(fa.ids.size(), 0);
      for (const Cell& c : cells_) {
        const size_t l = platforms_[c.platform].level[f];
        num[l] += c.y - fitted(c) + fa.effect[l];
      }
      const auto unstated = fa.ids.find("");
      for (size_t l = 0; l < fa.ids.size(); ++l) {
        const bool stated = unstated == fa.ids.end() || unstated->second != l;
        fa.effect[l] = stated ? num[l] / (fa.cells[l] + opt_.*fa.penalty) : 0;
      }
    }
    num.assign(P, 0);
    for (const Cell& c : cells_) num[c.platform] += c.y - fitted(c) + platform_[c.platform];
    for (size_t p = 0; p < P; ++p) platform_[p] = num[p] / (platforms_[p].cells + opt_.platform_penalty);
  }
  double ss = 0;
  for (const Cell& c : cells_) ss += std::pow(c.y - fitted(c), 2);
  residual_sd_ = cells_.empty() ? 0 : std::sqrt(ss / static_cast<double>(cells_.size()));
  max_log_duration_ = -std::numeric_limits<double>::infinity();
  for (const Cell& c : cells_)
    for (double y : c.log_duration) max_log_duration_ = std::max(max_log_duration_, y);
  fitted_ = true;
}

SystemEffects::Estimate SystemEffects::predict(const std::string& workload, const PlatformFacts& pf) const {
  Estimate e;
  const auto wi = workload_ids_.find(workload);
  if (wi == workload_ids_.end()) return e;
  fit();
  const size_t w = wi->second;
  e.ok = true;
  e.log_duration = mean_[w];
  e.evidence.push_back("workload " + workload + ": " + std::to_string(workload_cells_[w]) + " platforms" +
                       (opt_.use_count ? ", slope " + fmt("%.2f", slope_[w]) + ", curvature " + fmt("%.3f", curvature_)
                                       : std::string()));
  // The platform as the fit knows it (its own effect), or a new one with the stated facts.
  const auto pi = platform_ids_.find(pf.platform);
  const bool known = pi != platform_ids_.end() && platforms_[pi->second].cells > 0;
  Platform p;
  if (known) {
    p = platforms_[pi->second];
    e.log_duration += platform_[pi->second];
    e.evidence.push_back("platform " + pf.platform + ": " + std::to_string(p.cells) + " workloads, effect " +
                         fmt("%+.2f", platform_[pi->second]));
  } else {
    p.facts = pf;
    p.has_count = pf.count > 0;
    p.log_count = p.has_count ? std::log(static_cast<double>(pf.count)) : 0;
    e.evidence.push_back("platform " + pf.platform + ": no finished run");
  }
  e.log_duration += scale_term(w, p);
  if (opt_.use_count && !p.has_count) e.evidence.push_back("accelerator count unknown: the workload's average scale");
  for (size_t f = 0; f < kFactors; ++f) {
    const Factor& fa = factors_[f];
    const std::string& l = pf.*fa.field;
    const auto it = fa.ids.find(l);
    if (l.empty() || it == fa.ids.end()) {
      e.evidence.push_back(std::string(fa.name) + " " + (l.empty() ? "unstated" : l) + ": no effect (not seen)");
      continue;
    }
    e.log_duration += fa.effect[it->second];
    e.evidence.push_back(std::string(fa.name) + " " + l + ": " + std::to_string(fa.cells[it->second]) +
                         " cells, effect " + fmt("%+.2f", fa.effect[it->second]));
  }
  // Longer than any run that ever finished: the fit extrapolating. (Shorter than every run is
  // kept: a platform with more accelerators than any seen is expected to be the fastest.)
  if (e.log_duration > max_log_duration_) {
    e.evidence.push_back("capped at the longest finished run (" + fmt("%.0f", std::exp(max_log_duration_)) +
                         " s): the fit extrapolated to " + fmt("%.3g", std::exp(e.log_duration)) + " s");
    e.log_duration = max_log_duration_;
  }
  e.sigma = std::max(kMinSigma, residual_sd_ * std::sqrt(1.0 + 1.0 / workload_cells_[w])) +
            (known ? 0 : kNewPlatformSigma);
  return e;
}

}  // namespace mlsys::schedmate
