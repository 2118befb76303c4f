// FIFO with EASY backfilling (Lifka, "The ANL/IBM SP scheduling system", JSSPP'95): the queue head
// gets a reservation at the earliest time enough GPUs free up (from running jobs' estimated ends);
// later jobs may start now if they end (by estimate) before it or only use GPUs the head will not
// need. Reservations count GPUs, not specific nodes.
#include <algorithm>
#include <set>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

class Easy final : public Policy {
 public:
  explicit Easy(const PolicyParams& p) : depth_(p.backfill_depth) {}

  void on_submit(JobId j, const ClusterView&) override { queue_.push_back(j); }
  void on_finish(JobId j, const ClusterView&) override {
    if (static_cast<size_t>(j) < end_.size() && end_[j] >= 0) {
      ends_.erase({end_[j], j});
      end_[j] = -1;
    }
    released_ = true;
  }

  void schedule(SchedulerContext& ctx) override {
    compact();
    while (head_ < queue_.size()) {
      JobId h = queue_[head_];
      if (!start(ctx, h)) break;
      ++head_;
      skip_started();
    }
    if (head_ >= queue_.size()) return;
    const JobId h = queue_[head_];
    const bool same = !released_ && h == last_head_;
    released_ = false;
    last_head_ = h;
    // Nothing freed, same head, no new arrivals: the last scan's answer still holds.
    if (same && scanned_ >= std::min(queue_.size(), head_ + 1 + static_cast<size_t>(depth_))) return;
    // Shadow time: when the head could start by GPU count.
    const auto& hj = ctx.job(h);
    const int64_t need = int64_t{hj.num_gpus} * hj.gpu_milli;
    int64_t free = ctx.cluster().total_free_milli();
    double shadow = 1e300;
    for (const auto& [t, j] : ends_) {
      free += int64_t{ctx.job(j).num_gpus} * ctx.job(j).gpu_milli;
      if (free >= need) {
        shadow = t;
        break;
      }
    }
    int64_t extra = shadow < 1e300 ? free - need : 0;
    const size_t limit = head_ + 1 + static_cast<size_t>(depth_);
    size_t from = same ? std::max(scanned_, head_ + 1) : head_ + 1;
    for (size_t i = from; i < queue_.size() && i < limit; ++i) {
      JobId j = queue_[i];
      if (j < 0) continue;
      const auto& job = ctx.job(j);
      const int64_t use = int64_t{job.num_gpus} * job.gpu_milli;
      const bool before_shadow = ctx.now() + job.estimate <= shadow;
      if (!before_shadow && use > extra) continue;
      if (start(ctx, j)) {
        if (!before_shadow) extra -= use;
        queue_[i] = -1;
        ++holes_;
      }
    }
    scanned_ = std::min(queue_.size(), limit);
  }

 private:
  bool start(SchedulerContext& ctx, JobId j) {
    if (!ctx.try_start(j)) return false;
    if (end_.size() <= static_cast<size_t>(j)) end_.resize(static_cast<size_t>(j) + 1, -1);
    end_[j] = ctx.now() + ctx.remaining_estimate(j);
    ends_.insert({end_[j], j});
    return true;
  }
  void skip_started() {
    while (head_ < queue_.size() && queue_[head_] < 0) ++head_;
  }
  // Drops the started prefix and holes now and then, so the queue stays proportional to the jobs
  // waiting.
  void compact() {
    if (head_ < 4096 && holes_ < 4096) return;
    std::vector<JobId> keep;
    keep.reserve(queue_.size() - head_);
    for (size_t i = head_; i < queue_.size(); ++i)
      if (queue_[i] >= 0) keep.push_back(queue_[i]);
    scanned_ = 0;
    last_head_ = -1;
    queue_.swap(keep);
    head_ = 0;
    holes_ = 0;
  }

  int depth_;
  std::vector<JobId> queue_;
  size_t head_ = 0, scanned_ = 0, holes_ = 0;
  JobId last_head_ = -1;
  bool released_ = true;
  std::vector<double> end_;
  std::set<std::pair<double, JobId>> ends_;
};

const bool registered = policy_registry().add(
    "easy", "FIFO with EASY backfilling using duration estimates (Lifka, JSSPP'95; Mu'alem & Feitelson, TPDS'01)",
    [](const PolicyParams& p) { return std::make_unique<Easy>(p); });

}  // namespace
}  // namespace mlsys::sched
