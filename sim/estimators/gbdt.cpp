// `gbdt`: gradient-boosted trees over job metadata in the manner of Helios' QSSF, trained online
// in trace time (sched/workload/gbdt_estimator.hpp, XGBoost).
#include "sched/workload/gbdt_estimator.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {
namespace {

class Gbdt final : public Estimator {
 public:
  Estimates estimate(const std::vector<workload::JobSpec>& jobs, const EstimatorOptions& o) override {
    workload::GbdtOptions g;
    g.default_s = o.default_s;
    Estimates e;
    static_cast<workload::DurationEstimates&>(e) = workload::gbdt_estimates(jobs, g);
    return e;
  }
};

const bool registered = estimator_registry().add(
    "gbdt", "Gradient-boosted trees on job metadata (user, VC, name, GPUs; Helios QSSF style), trained online",
    [] { return std::make_unique<Gbdt>(); });

}  // namespace
}  // namespace mlsys::sim
