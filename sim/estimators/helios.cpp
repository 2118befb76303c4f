// `helios`: the Helios-style history estimator of the workload library (sched/workload/
// history_estimator.hpp), the same one SchedMate's evaluation uses as its baseline.
#include "sched/workload/history_estimator.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {
namespace {

class Helios final : public Estimator {
 public:
  Estimates estimate(const std::vector<workload::JobSpec>& jobs, const EstimatorOptions& o) override {
    Estimates e;
    static_cast<workload::DurationEstimates&>(e) = workload::helios_estimates(jobs, o.default_s);
    return e;
  }
};

const bool registered = estimator_registry().add(
    "helios", "History of the user's and similar job names' finished jobs, online (Helios QSSF, Hu et al., SC'21)",
    [] { return std::make_unique<Helios>(); });

}  // namespace
}  // namespace mlsys::sim
