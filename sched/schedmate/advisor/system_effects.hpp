#pragma once
// Transfer across systems and scales (a platform's first run of a workload): a multiplicative model
// of run duration learned from every finished run of every user,
//   log duration = workload effect + the workload's scaling in log(accelerators)
//                  + accelerator-kind effect + user effect + software-stack effect + platform effect,
// fitted on cells, one per (workload, platform) holding the median log duration of its runs. The
// scaling is a slope per workload (ResNet scales better than GNMT), shrunk toward the slope all
// workloads share, plus a curvature they share (scaling flattens at large counts); the kind, user,
// software and platform effects are shrunk toward 0 (ridge). So a platform with runs of other
// workloads carries its own speed over, a new platform gets what its kind, user and software
// showed elsewhere, and what is unknown adds nothing rather than a guess.
#include <array>
#include <map>
#include <string>
#include <vector>

namespace mlsys::schedmate {

// The ridge penalties (in cells: an effect seen in n cells keeps n / (n + penalty) of their mean
// residual) and the slope's prior. Method constants, set on MLPerf v0.6 alone (docs/schedmate.md).
struct SystemEffectsOptions {
  double slope_prior = -0.8;          // log duration per log accelerator count before any is seen
  double slope_penalty = 2.0;         // a workload's slope toward the shared one (in sum of squared log counts)
  double shared_slope_penalty = 1.0;  // the shared slope toward slope_prior (in workloads)
  double curvature_penalty = 1.0;     // the shared curvature toward 0 (in its squared regressor)
  double kind_penalty = 0.3;
  double user_penalty = 1.0;
  double software_penalty = 0.3;
  double platform_penalty = 3.0;
  bool use_count = true;  // false: the accelerator count is ignored (an ablation, tests)
};

struct PlatformFacts {
  std::string platform;  // what fixes hardware and software (an MLPerf system)
  std::string kind;      // accelerator kind, "" = unknown
  std::string user;
  std::string software;  // "" = not stated
  int count = 0;         // accelerators; 0 = unknown or none (CPU)
};

class SystemEffects {
 public:
  explicit SystemEffects(SystemEffectsOptions opt = {}) : opt_(opt) {}
  void add(const std::string& workload, const PlatformFacts& platform, double log_duration);

  struct Estimate {
    bool ok = false;  // false: the workload has no finished run on any platform
    double log_duration = 0;
    double sigma = 0;  // one standard deviation of log duration
    // What the estimate rests on, one line each ("workload resnet: 6 platforms, ...").
    std::vector<std::string> evidence;
  };
  Estimate predict(const std::string& workload, const PlatformFacts& platform) const;

 private:
  // A fact platforms share (kind, user, software): its levels and, per level, an effect.
  struct Factor {
    const char* name;
    std::string PlatformFacts::*field;
    double SystemEffectsOptions::*penalty;
    std::map<std::string, size_t> ids;
    mutable std::vector<double> effect;
    mutable std::vector<int> cells;
  };
  static constexpr size_t kFactors = 3;
  struct Cell {
    size_t workload = 0, platform = 0;
    std::vector<double> log_duration;
    double y = 0;  // median of log_duration
  };
  struct Platform {
    PlatformFacts facts;
    std::array<size_t, kFactors> level{};
    double log_count = 0;
    bool has_count = false;
    int cells = 0;
  };
  static size_t index_of(std::map<std::string, size_t>& ids, const std::string& name);
  void fit() const;
  double scale_term(size_t workload, const Platform& p) const;
  double shared_effects(const Platform& p) const;

  SystemEffectsOptions opt_;
  std::array<Factor, kFactors> factors_{
      {{"kind", &PlatformFacts::kind, &SystemEffectsOptions::kind_penalty, {}, {}, {}},
       {"user", &PlatformFacts::user, &SystemEffectsOptions::user_penalty, {}, {}, {}},
       {"software", &PlatformFacts::software, &SystemEffectsOptions::software_penalty, {}, {}, {}}}};
  std::map<std::string, size_t> workload_ids_, platform_ids_;
  std::vector<Platform> platforms_;
  std::vector<Cell> cells_;
  std::map<std::pair<size_t, size_t>, size_t> cell_of_;  // (workload, platform) -> cell
  // The fit, redone when cells change.
  mutable bool fitted_ = false;
  mutable std::vector<double> mean_, slope_, mean_log_count_, mean_sq_, platform_;
  mutable std::vector<int> workload_cells_;
  mutable double shared_slope_ = 0, curvature_ = 0, residual_sd_ = 0;
  // The largest squared distance of a fitted cell's log count from its workload's mean (how far
  // the curvature was seen), and the longest log duration of any finished run: an estimate beyond
  // it is the fit extrapolating, so it is capped there and says so in its evidence.
  mutable double max_sq_ = 0, max_log_duration_ = 0;
};

}  // namespace mlsys::schedmate
