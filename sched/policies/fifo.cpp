// FIFO with strict head-of-line blocking: jobs start in submit order and nothing overtakes a
// head that cannot be placed (the baseline of every scheduling paper, e.g. Helios' FIFO).
#include <deque>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

class Fifo final : public Policy {
 public:
  void on_submit(JobId j, const ClusterView&) override { queue_.push_back(j); }
  void on_finish(JobId, const ClusterView&) override {}
  void schedule(SchedulerContext& ctx) override {
    while (!queue_.empty() && ctx.try_start(queue_.front())) queue_.pop_front();
  }

 private:
  std::deque<JobId> queue_;
};

const bool registered = policy_registry().add(
    "fifo", "First in, first out with strict head-of-line blocking (baseline in Helios, Hu et al., SC'21)",
    [](const PolicyParams&) { return std::make_unique<Fifo>(); });

}  // namespace
}  // namespace mlsys::sched
