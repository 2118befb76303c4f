// Tiresias' discretized two-dimensional LAS (Gu et al., NSDI'19): a job's priority is its attained
// service (GPUs x time run so far), discretized into queues by thresholds; within a queue jobs
// run in arrival order. Every round the active jobs are re-ranked and lower-priority running jobs
// are preempted for higher ones; a starvation guard promotes jobs that waited too long relative
// to their service. No duration knowledge is needed. Between rounds, arrivals start on idle GPUs.
#include <algorithm>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

// Attained-service thresholds (GPU-seconds) between priority queues, the round length, and the
// starvation guard (a job waiting longer than factor x its last run time, and at least one round,
// is promoted to the top queue; 0 disables).
struct LasTunables {
  std::vector<double> thresholds = {3600, 36000};
  double round_s = 60;
  double starvation_factor = 10;
};

const config::Section<LasTunables>& las_tunables() {
  using T = LasTunables;
  static const config::Section<T> s("las", "Tiresias 2D-LAS", [](auto& s) {
    s.field("las_thresholds", &T::thresholds, "las: attained-service thresholds between queues (GPU-seconds)");
    s.field("las_round_s", &T::round_s, "las: scheduling round (seconds)").range(1e-3, 1e9);
    s.field("las_starvation_factor", &T::starvation_factor, "las: promote a job waiting longer than this x its run time (0 = off)").range(0, 1e9);
  });
  return s;
}
const bool tunables_registered = add_policy_tunables(las_tunables());

class Las final : public Policy {
 public:
  explicit Las(const LasTunables& t)
      : thresholds_(t.thresholds), round_(t.round_s > 0 ? t.round_s : 60), starve_(t.starvation_factor) {
    std::sort(thresholds_.begin(), thresholds_.end());
  }
  bool preemptive() const override { return true; }

  // A retried job (resubmitted by the engine after a failed attempt) is still active: keep one entry.
  void on_submit(JobId j, const ClusterView&) override {
    if (static_cast<size_t>(j) >= in_active_.size()) in_active_.resize(static_cast<size_t>(j) + 1, 0);
    if (in_active_[j]) return;
    in_active_[j] = 1;
    active_.push_back(j);
  }
  void on_finish(JobId, const ClusterView&) override { ++finished_since_compact_; }

  void schedule(SchedulerContext& ctx) override {
    if (finished_since_compact_ > 64 || finished_since_compact_ * 2 > active_.size()) {
      active_.erase(std::remove_if(active_.begin(), active_.end(),
                                   [&](JobId j) {
                                     if (ctx.status(j) != JobStatus::Finished) return false;
                                     in_active_[j] = 0;
                                     return true;
                                   }),
                    active_.end());
      finished_since_compact_ = 0;
    }
    if (ctx.pending_count() == 0) return;
    const double now = ctx.now();
    const bool full_round = now >= next_round_;
    std::vector<std::pair<int, JobId>> order;  // (queue level, job); stable sort keeps arrival order
    order.reserve(active_.size());
    for (JobId j : active_) {
      auto st = ctx.status(j);
      if (st == JobStatus::Finished) continue;
      if (!full_round && st != JobStatus::Pending) continue;
      order.emplace_back(level(ctx, j), j);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (full_round) {
      int64_t quota = int64_t{ctx.cluster().total_gpus()} * 1000;
      std::vector<JobId> keep_or_start, preempt;
      for (const auto& [lvl, j] : order) {
        const auto& job = ctx.job(j);
        const int64_t use = int64_t{job.num_gpus} * job.gpu_milli;
        if (use <= quota) {
          quota -= use;
          if (ctx.status(j) == JobStatus::Pending) keep_or_start.push_back(j);
        } else if (ctx.status(j) == JobStatus::Running) {
          preempt.push_back(j);
        }
      }
      for (JobId j : preempt) ctx.preempt(j);
      for (JobId j : keep_or_start) ctx.try_start(j);
      next_round_ = now + round_;
    } else {
      for (const auto& [lvl, j] : order)
        if (ctx.cluster().total_free_milli() > 0) ctx.try_start(j);
    }
    if (ctx.pending_count() > 0 && next_round_ > now) ctx.wake_at(next_round_);
  }

 private:
  int level(const ClusterView& v, JobId j) const {
    const auto& job = v.job(j);
    if (starve_ > 0 && v.status(j) == JobStatus::Pending && v.executed(j) > 0) {
      double waited = v.now() - v.queued_since(j);
      if (waited >= std::max(starve_ * v.executed(j), round_)) return 0;
    }
    const double attained = v.executed(j) * std::max(job.num_gpus, 1) * (job.gpu_milli / 1000.0);
    int lvl = 0;
    while (lvl < static_cast<int>(thresholds_.size()) && attained >= thresholds_[lvl]) ++lvl;
    return lvl;
  }

  std::vector<double> thresholds_;
  double round_, starve_;
  double next_round_ = 0;
  std::vector<JobId> active_;
  std::vector<uint8_t> in_active_;
  size_t finished_since_compact_ = 0;
};

const bool registered = policy_registry().add(
    "las", "Tiresias discretized 2D-LAS: attained-service queues, periodic preemptive rounds, starvation guard (Gu et al., NSDI'19)",
    [](const PolicyParams& p) { return std::make_unique<Las>(p.get(las_tunables())); });

}  // namespace
}  // namespace mlsys::sched
