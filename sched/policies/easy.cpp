// FIFO with EASY backfilling (Lifka, "The ANL/IBM SP scheduling system", JSSPP'95): the queue head
// gets a reservation at the earliest time enough GPUs free up (from running jobs' estimated ends);
// later jobs may start now if they end (by estimate) before it or only use GPUs the head will not
// need. Reservations count GPUs, not specific nodes; `easy_nodes` computes the shadow time from
// whole free GPUs per node instead (when the head could actually be placed), still counting the
// GPUs that long backfilled jobs may take.
//
// Estimated ends live in a binary min-heap ordered by (end, job) with lazy deletion (an entry is
// live while its sequence number is the job's current one); the shadow time walks the heap in
// ascending order best-first, visiting only the entries it needs. Same order, same decisions as a
// sorted set, without a tree node allocation per started job or a removal per finished one.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sched/api/policy.hpp"

namespace mlsys::sched {
namespace {

struct EasyTunables {
  int backfill_depth = 256;  // queued jobs examined behind the head per round
};

const config::Section<EasyTunables>& easy_tunables() {
  static const config::Section<EasyTunables> s("easy", "EASY backfilling", [](auto& s) {
    s.field("backfill_depth", &EasyTunables::backfill_depth, "easy: queued jobs examined behind the head per round").range(0, 1e9);
  });
  return s;
}
const bool tunables_registered = add_policy_tunables(easy_tunables());

class Easy final : public Policy {
 public:
  Easy(const PolicyParams& p, bool by_node) : depth_(p.get(easy_tunables()).backfill_depth), by_node_(by_node) {}

  void on_submit(JobId j, const ClusterView&) override { queue_.push_back(j); }
  void on_finish(JobId j, const ClusterView&) override {
    // The entry stays in the heap until a shadow-time walk pops it from the front or a compaction
    // drops it (most rounds need no shadow time, so most entries are never popped one by one).
    if (static_cast<size_t>(j) < seq_.size() && seq_[j] != 0) {
      seq_[j] = 0;
      --live_;
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
    // Shadow time: when the head could start by GPU count (easy_nodes: by whole free GPUs per
    // node, for heads of whole GPUs without a GPU model; else, and when no node-aware time
    // exists, by count).
    const auto& hj = ctx.job(h);
    const int64_t need = int64_t{hj.num_gpus} * hj.gpu_milli;
    int64_t free = ctx.cluster().total_free_milli();
    double shadow = 1e300;
    const bool by_node = by_node_ && hj.num_gpus > 0 && hj.gpu_milli >= 1000 && hj.gpu_type < 0;
    double count_shadow = 1e300;
    int64_t count_free = 0;
    if (by_node) fit_.init(ctx.cluster(), hj.num_gpus);
    // Best-first walk of the heap: a frontier of heap indices, smallest (end, job) first.
    while (!ends_.empty() && !live(ends_.front())) {
      std::pop_heap(ends_.begin(), ends_.end(), Later{});
      ends_.pop_back();
    }
    frontier_.clear();
    if (!ends_.empty()) frontier_.push_back(0);
    auto by_entry = [&](uint32_t a, uint32_t b) { return Later{}(ends_[a], ends_[b]); };
    while (!frontier_.empty()) {
      std::pop_heap(frontier_.begin(), frontier_.end(), by_entry);
      const uint32_t i = frontier_.back();
      frontier_.pop_back();
      for (uint32_t c = 2 * i + 1; c <= 2 * i + 2 && c < ends_.size(); ++c) {
        frontier_.push_back(c);
        std::push_heap(frontier_.begin(), frontier_.end(), by_entry);
      }
      const End& e = ends_[i];
      if (!live(e)) continue;
      free += int64_t{ctx.job(e.job).num_gpus} * ctx.job(e.job).gpu_milli;
      if (!by_node) {
        if (free >= need) {
          shadow = e.t;
          break;
        }
        continue;
      }
      if (free >= need && count_shadow >= 1e300) {
        count_shadow = e.t;
        count_free = free;
      }
      for (const auto& sl : ctx.allocation(e.job))
        if (sl.gpu >= 0 && sl.milli >= 1000) fit_.release(ctx.cluster(), sl.node);
      if (fit_.fits()) {
        shadow = e.t;
        break;
      }
    }
    if (by_node && shadow >= 1e300 && count_shadow < 1e300) {
      shadow = count_shadow;  // the head never fits by node rule on running jobs' ends alone
      free = count_free;
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
  struct End {
    double t;
    JobId job;
    uint32_t seq;
  };
  // Whether a head of g whole GPUs fits on the nodes as running jobs release theirs, by the rule
  // of the consolidating placers: floor(g / size) completely free nodes of the largest size plus
  // one more node with g mod size free GPUs (a single-node head: one node with g free).
  class NodeFit {
   public:
    void init(const ClusterState& c, int g) {
      for (int n : touched_) released_[static_cast<size_t>(n)] = 0;
      touched_.clear();
      released_.resize(static_cast<size_t>(c.num_nodes()), 0);
      size_ = std::max(1, c.max_node_gpus());
      full_need_ = g / size_;
      rest_ = g % size_;
      full_ = c.count_with_free(size_);
      partial_ = 0;
      if (rest_ > 0)
        for (int k = rest_; k < size_; ++k) partial_ += c.count_with_free(k);
    }
    void release(const ClusterState& c, int n) {
      int& r = released_[static_cast<size_t>(n)];
      if (r == 0) touched_.push_back(n);
      const int before = c.free_gpus(n) + r;
      ++r;
      count(before, -1);
      count(before + 1, +1);
    }
    bool fits() const { return full_ >= full_need_ && (rest_ == 0 || partial_ > 0 || full_ > full_need_); }

   private:
    void count(int free, int d) {
      if (free >= size_) {
        full_ += d;
      } else if (rest_ > 0 && free >= rest_) {
        partial_ += d;
      }
    }
    std::vector<int> released_, touched_;
    int size_ = 1, full_need_ = 0, rest_ = 0, full_ = 0, partial_ = 0;
  };
  // Heap order: true when a comes after b, so the heap's front is the smallest (end, job).
  struct Later {
    bool operator()(const End& a, const End& b) const { return a.t > b.t || (a.t == b.t && a.job > b.job); }
  };
  bool live(const End& e) const { return seq_[e.job] == e.seq; }

  bool start(SchedulerContext& ctx, JobId j) {
    if (!ctx.try_start(j)) return false;
    if (seq_.size() <= static_cast<size_t>(j)) seq_.resize(static_cast<size_t>(j) + 1, 0);
    if (seq_[j] == 0) ++live_;
    if (++next_seq_ == 0) ++next_seq_;  // 0 marks "no live entry"
    seq_[j] = next_seq_;
    ends_.push_back(End{ctx.now() + ctx.remaining_estimate(j), j, next_seq_});
    std::push_heap(ends_.begin(), ends_.end(), Later{});
    // Entries of ended jobs: dropped all at once when they outnumber the live ones.
    if (ends_.size() > 2 * live_ + 64) {
      ends_.erase(std::remove_if(ends_.begin(), ends_.end(), [&](const End& e) { return !live(e); }), ends_.end());
      std::make_heap(ends_.begin(), ends_.end(), Later{});
    }
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
  bool by_node_;
  NodeFit fit_;
  std::vector<JobId> queue_;
  size_t head_ = 0, scanned_ = 0, holes_ = 0;
  JobId last_head_ = -1;
  bool released_ = true;
  std::vector<End> ends_;          // min-heap by (end, job), with stale entries
  std::vector<uint32_t> seq_;      // per job: sequence number of its live entry (0 = none)
  std::vector<uint32_t> frontier_;  // scratch for the shadow-time walk
  uint32_t next_seq_ = 0;
  size_t live_ = 0;
};

const bool registered = policy_registry().add(
    "easy", "FIFO with EASY backfilling using duration estimates (Lifka, JSSPP'95; Mu'alem & Feitelson, TPDS'01)",
    [](const PolicyParams& p) { return std::make_unique<Easy>(p, false); });
const bool registered_nodes = policy_registry().add(
    "easy_nodes", "EASY backfilling whose reservation waits for enough free GPUs on whole nodes, not just their count (Lifka, JSSPP'95)",
    [](const PolicyParams& p) { return std::make_unique<Easy>(p, true); });

}  // namespace
}  // namespace mlsys::sched
