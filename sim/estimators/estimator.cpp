#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {

EstimatorRegistry& estimator_registry() {
  static EstimatorRegistry r("duration estimator");
  return r;
}
std::vector<std::string> estimator_names() { return estimator_registry().names(); }

}  // namespace mlsys::sim
