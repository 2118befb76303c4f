// `hints`: per-job predicted durations from the hints file SchedMate writes (sched/workload/
// hints.hpp). Jobs missing from the file fall back to the Helios-style history estimator and are
// counted.
#include "core/util/error.hpp"
#include "sched/workload/hints.hpp"
#include "sim/estimators/estimator.hpp"
#include "core/util/fs.hpp"

namespace mlsys::sim {
namespace {

class Hints final : public Estimator {
 public:
  Estimates estimate(const std::vector<workload::JobSpec>& jobs, const EstimatorOptions& o) override {
    if (o.hints_file.empty())
      throw ConfigError("estimator 'hints' needs sim.hints_file (the CSV SchedMate writes)");
    require_input(o.hints_file, "sim.hints_file", InputKind::File, "the hints CSV `mlsys schedmate advise` writes");
    auto hints = workload::read_hints(o.hints_file);
    workload::DurationEstimates fallback;
    bool have_fallback = false;
    Estimates e;
    e.value.assign(jobs.size(), 0);
    for (size_t i = 0; i < jobs.size(); ++i) {
      auto it = hints.find(jobs[i].id);
      if (it != hints.end()) {
        e.value[i] = it->second.duration_s;
        ++e.sources["hints"];
        continue;
      }
      if (!have_fallback) {
        fallback = workload::helios_estimates(jobs, o.default_s);
        have_fallback = true;
      }
      e.value[i] = fallback.value[i];
      ++e.fallbacks;
      ++e.sources["helios fallback"];
    }
    return e;
  }
};

const bool registered = estimator_registry().add(
    "hints", "Per-job predictions from a CSV (SchedMate's output); missing jobs use the helios estimator",
    [] { return std::make_unique<Hints>(); });

}  // namespace
}  // namespace mlsys::sim
