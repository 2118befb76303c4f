#include "sched/api/placer.hpp"
#include "sched/api/policy.hpp"

namespace mlsys::sched {

PolicyRegistry& policy_registry() {
  static PolicyRegistry r("scheduling policy");
  return r;
}
std::vector<std::string> policy_names() { return policy_registry().names(); }

PlacerRegistry& placer_registry() {
  static PlacerRegistry r("placer");
  return r;
}
std::vector<std::string> placer_names() { return placer_registry().names(); }

}  // namespace mlsys::sched
