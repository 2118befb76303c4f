// Shortest job first (non-preemptive, head-of-line blocking as in Helios' SJF): the queue is
// ordered by the duration estimate, which is the true duration with the `oracle` estimator.
#include "sched/policies/ordered_queue.hpp"

namespace mlsys::sched {
namespace {

class Sjf final : public OrderedHolPolicy {
 protected:
  double key(const JobInfo& job) const override { return job.estimate; }
};

const bool registered = policy_registry().add(
    "sjf", "Shortest job first by (estimated) duration, non-preemptive (SJF baseline of Helios, Hu et al., SC'21)",
    [](const PolicyParams&) { return std::make_unique<Sjf>(); });

}  // namespace
}  // namespace mlsys::sched
