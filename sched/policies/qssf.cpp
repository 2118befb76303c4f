// Quasi-Shortest-Service-First (Helios, Hu et al., SC'21): jobs are ordered by their estimated
// GPU time (duration estimate x GPUs); the estimate comes from the estimator (Helios' own is
// history-based: the user's and similar job names' past durations).
#include "sched/policies/ordered_queue.hpp"

namespace mlsys::sched {
namespace {

class Qssf final : public OrderedHolPolicy {
 protected:
  double key(const JobInfo& job) const override {
    return job.estimate * (job.num_gpus > 0 ? job.num_gpus : 1) * (job.gpu_milli / 1000.0);
  }
};

const bool registered = policy_registry().add(
    "qssf", "Quasi-shortest-service-first: priority from estimated GPU time, non-preemptive (Helios, Hu et al., SC'21)",
    [](const PolicyParams&) { return std::make_unique<Qssf>(); });

}  // namespace
}  // namespace mlsys::sched
