#include "sim/engine/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/runtime/event_queue.hpp"
#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"
#include "sched/placement/fragmentation.hpp"
#include "sim/engine/id_set.hpp"
#include "sim/engine/links.hpp"

namespace mlsys::sim {
namespace {

using sched::Allocation;
using sched::JobId;
using sched::JobStatus;

// Event payload: the job whose run ends, -1 for a wake-up the policy asked for, or -(j + 2) for the
// resubmission of job j after a failed attempt. A preempted, migrated or re-timed (congestion)
// job's pending end event is cancelled.
using Ev = int32_t;

constexpr double kInf = 1e300;

}  // namespace

class Engine final : public sched::SchedulerContext {
 public:
  Engine(sched::ClusterState cluster, const std::vector<EngineJob>& jobs, const std::vector<int>& vc_quota,
         const EngineOptions& o, const std::vector<sched::DemandClass>& workload, const EngineProgress& progress)
      : c_(std::move(cluster)), jobs_(jobs), quota_(vc_quota), o_(o), workload_(workload), progress_(progress) {
    const size_t n = jobs.size();
    status_.assign(n, JobStatus::NotSubmitted);
    executed_.assign(n, 0);
    run_start_.assign(n, -1);
    seg_start_.assign(n, -1);
    seg_penalty_.assign(n, 0);
    // Failure and congestion state only when used (the default run keeps its memory per job).
    bool any_fails = false;
    for (const auto& j : jobs) any_fails = any_fails || j.failure.fails;
    if (any_fails) {
      att_.resize(n);
      for (size_t i = 0; i < n; ++i) att_[i].dur = jobs[i].duration;
    }
    if (o.slowdown && o.slowdown_model == "links") {
      if (o.congestion_per_job > 0)
        throw ConfigError("sim.congestion_per_job belongs to the constant slowdown model; with sim.slowdown_model: links, "
                          "contention comes from the shared links (set congestion_per_job to 0)");
      links_ = std::make_unique<LinkModel>(c_, o.links);
    } else if (o.slowdown && o.slowdown_model != "constant") {
      throw ConfigError("sim.slowdown_model = '" + o.slowdown_model + "'; valid: constant, links");
    }
    if (o.slowdown && o.congestion_per_job > 0 && !links_) {
      cong_.resize(n);
      rack_jobs_.resize(static_cast<size_t>(std::max(1, c_.num_racks())));
    }
    if (o.sample_interval > 0) pending_ids_ = IdSet(n);
    if (o.fgd_samples) {
      node_frag_.assign(static_cast<size_t>(c_.num_nodes()), 0);
      frag_dirty_.assign(static_cast<size_t>(c_.num_nodes()), 1);
      for (int k = 0; k < c_.num_nodes(); ++k) dirty_nodes_.push_back(k);
    }
    next_penalty_.assign(n, 0);
    queued_since_.assign(n, 0);
    slow_.assign(n, 1);
    end_event_.assign(n, 0);
    alloc_.resize(n);
    run_pos_.assign(n, -1);
    res_.jobs.resize(n);
    res_.total_gpus = c_.total_gpus();
    for (int q : quota_) used_.push_back(q * 0);
    int max_vc = -1;
    for (const auto& j : jobs) max_vc = std::max(max_vc, j.info.vc);
    if (static_cast<int>(used_.size()) <= max_vc) used_.resize(static_cast<size_t>(max_vc) + 1, 0);
    if (static_cast<int>(quota_.size()) <= max_vc) quota_.resize(static_cast<size_t>(max_vc) + 1, -1);
    policy_ = sched::policy_registry().create(o.policy, o.policy_params);
    sched::PlacerParams pp;
    pp.seed = o.seed;
    pp.workload = workload;
    placer_ = sched::placer_registry().create(o.placer, pp);
    for (size_t i = 0; i < n; ++i) {
      const auto& j = jobs[i].info;
      if (j.id != static_cast<JobId>(i)) throw Error("engine: job ids must be 0..N-1 in order");
      if (i > 0 && j.submit < jobs[i - 1].info.submit) throw Error("engine: jobs must be sorted by submit time");
      if (!(jobs[i].duration >= 0) || !std::isfinite(jobs[i].duration))
        throw InputError("job " + std::to_string(i) + " has an invalid duration");
      if (!std::isfinite(jobs[i].failure.retry_duration))
        throw InputError("job " + std::to_string(i) + " has an invalid retry duration");
      if (static_cast<int64_t>(j.num_gpus) * std::min(j.gpu_milli, 1000) > int64_t{c_.total_gpus()} * 1000)
        throw InputError("job " + std::to_string(i) + " needs " + std::to_string(j.num_gpus) + " GPUs but the cluster (or its VC partition) has " +
                         std::to_string(c_.total_gpus()) + "; filter it out (trace.max_gpus) or enlarge the cluster");
      if (!o.borrowing && quota_[j.vc] >= 0 && j.num_gpus > quota_[j.vc])
        throw InputError("job " + std::to_string(i) + " needs " + std::to_string(j.num_gpus) + " GPUs but its VC's quota is " +
                         std::to_string(quota_[j.vc]) + " and borrowing is off; enable sim.cluster.borrowing or raise the quota");
    }
  }

  EngineResult run() {
    const size_t n = jobs_.size();
    size_t next = 0;
    if (n > 0) {
      first_submit_ = jobs_[0].info.submit;
      origin_ = o_.has_sample_origin ? std::min(o_.sample_origin, first_submit_) : first_submit_;
      last_time_ = origin_;
      next_sample_ = o_.sample_interval > 0 ? origin_ + o_.sample_interval : kInf;
    }
    // Stops and progress by time (a round costs from nanoseconds to milliseconds).
    LongLoop loop("simulation", n, "jobs finished", [this](uint64_t done) {
      if (progress_) progress_(static_cast<int64_t>(done));
    });
    while (true) {
      double t_sub = next < n ? jobs_[next].info.submit : kInf;
      double t_ev = events_.empty() ? kInf : events_.top_time();
      double t = std::min(t_sub, t_ev);
      if (t >= kInf) break;
      advance(t);
      while (!events_.empty() && events_.top_time() == t) {
        auto e = events_.pop();
        ++res_.events;
        if (e.payload == -1) {
          wakes_.erase(t);
          continue;
        }
        if (e.payload < -1) {
          submit(-(e.payload + 2));
          continue;
        }
        JobId j = e.payload;
        if (status_[j] != JobStatus::Running) throw Error("engine: end event for job " + std::to_string(j) + " that is not running");
        end_attempt(j);
      }
      while (next < n && jobs_[next].info.submit == t) {
        ++res_.events;
        submit(static_cast<JobId>(next++));
      }
      ++res_.rounds;
      policy_->schedule(*this);
      loop.tick(finished_);
    }
    if (finished_ != n) {
      JobId stuck = -1;
      for (size_t i = 0; i < n && stuck < 0; ++i)
        if (status_[i] != JobStatus::Finished) stuck = static_cast<JobId>(i);
      throw Error("policy '" + o_.policy + "' left " + std::to_string(n - finished_) +
                  " job(s) unfinished with nothing left to happen (first: job " + std::to_string(stuck) + ", " +
                  std::to_string(jobs_[stuck].info.num_gpus) + " GPUs); the placer '" + o_.placer +
                  "' may never fit it");
    }
    if (o_.sample_interval > 0 && next_sample_ < kInf && next_sample_ - o_.sample_interval < last_end_)
      advance(next_sample_);  // close the last, partial interval
    res_.makespan = n ? last_end_ - first_submit_ : 0;
    return std::move(res_);
  }

  // ---- ClusterView ----
  double now() const override { return now_; }
  const sched::ClusterState& cluster() const override { return c_; }
  size_t num_jobs() const override { return jobs_.size(); }
  const sched::JobInfo& job(JobId j) const override { return jobs_[check_id(j)].info; }
  JobStatus status(JobId j) const override { return status_[check_id(j)]; }
  double executed(JobId j) const override {
    check_id(j);
    if (status_[j] != JobStatus::Running) return executed_[j];
    double run = now_ - seg_start_[j] - seg_penalty_[j];
    return executed_[j] + (run > 0 ? run / slow_[j] : 0);
  }
  double queued_since(JobId j) const override { return queued_since_[check_id(j)]; }
  double last_start(JobId j) const override { return run_start_[check_id(j)]; }
  const Allocation& allocation(JobId j) const override { return alloc_[check_id(j)]; }
  const std::vector<JobId>& running() const override { return running_; }
  size_t pending_count() const override { return pending_; }
  int num_vcs() const override { return static_cast<int>(quota_.size()); }
  int vc_quota(int vc) const override { return vc >= 0 && vc < num_vcs() ? quota_[vc] : -1; }
  int vc_used(int vc) const override { return vc >= 0 && vc < static_cast<int>(used_.size()) ? used_[vc] : 0; }
  bool borrowing() const override { return o_.borrowing; }

  // ---- decisions ----
  bool find_placement(JobId j, Allocation& out) override {
    out.clear();
    const auto& info = job(j);
    if (status_[j] != JobStatus::Pending) reject(j, "asked to place a job that is not pending");
    if (info.num_gpus > 0 && info.gpu_milli >= 1000 && c_.total_free_gpus() < info.num_gpus) return false;
    if (!o_.borrowing && vc_quota(info.vc) >= 0 && vc_used(info.vc) + info.num_gpus > vc_quota(info.vc)) return false;
    if (att_.empty() || att_[j].excluded.empty()) return placer_->place(info, c_, out);
    // A retry that must avoid the nodes of its failed attempts: the placer sees them full.
    block_nodes(att_[j].excluded, true);
    bool ok = placer_->place(info, c_, out);
    block_nodes(att_[j].excluded, false);
    return ok;
  }
  bool try_start(JobId j) override {
    if (!find_placement(j, scratch_)) return false;
    start(j, scratch_);
    return true;
  }
  void start(JobId j, const Allocation& a) override {
    const auto& info = job(j);
    if (status_[j] != JobStatus::Pending)
      reject(j, std::string("started a job that is ") + (status_[j] == JobStatus::Running ? "already running" : status_[j] == JobStatus::Finished ? "finished" : "not submitted yet"));
    if (std::string why = c_.check(info, a); !why.empty()) reject(j, why);
    if (!att_.empty())
      for (const auto& sl : a)
        if (std::binary_search(att_[j].excluded.begin(), att_[j].excluded.end(), sl.node))
          reject(j, "node " + c_.node(sl.node).name + " is excluded for this retry (resubmit_exclude_node)");
    if (!o_.borrowing && vc_quota(info.vc) >= 0 && vc_used(info.vc) + info.num_gpus > vc_quota(info.vc))
      reject(j, "exceeds the quota of VC " + std::to_string(info.vc) + " (" + std::to_string(vc_quota(info.vc)) +
                    " GPUs) and borrowing is off");
    integrate(now_);
    c_.allocate(info, a);
    touch(a);
    alloc_[j] = a;
    used_[info.vc] += info.num_gpus;
    status_[j] = JobStatus::Running;
    --pending_;
    if (o_.sample_interval > 0) pending_ids_.erase(static_cast<size_t>(j));
    run_pos_[j] = static_cast<int32_t>(running_.size());
    running_.push_back(j);
    auto& rec = res_.jobs[j];
    if (rec.first_start < 0) rec.first_start = now_;
    rec.queue_delay += now_ - queued_since_[j];
    launch(j, next_penalty_[j]);
    next_penalty_[j] = 0;
    ++res_.starts;
  }
  void preempt(JobId j) override {
    if (status(j) != JobStatus::Running) reject(j, "preempted a job that is not running");
    stop(j);
    status_[j] = JobStatus::Pending;
    ++pending_;
    if (o_.sample_interval > 0) pending_ids_.insert(static_cast<size_t>(j));
    queued_since_[j] = now_;
    next_penalty_[j] = o_.preemption.for_gpus(jobs_[j].info.num_gpus);
    ++res_.jobs[j].preemptions;
    ++res_.preemptions;
  }
  void migrate(JobId j, const Allocation& a) override {
    if (status(j) != JobStatus::Running) reject(j, "migrated a job that is not running");
    const auto& info = jobs_[j].info;
    integrate(now_);
    c_.release(info, alloc_[j]);
    if (std::string why = c_.check(info, a); !why.empty()) {
      c_.allocate(info, alloc_[j]);
      reject(j, "migration target invalid: " + why);
    }
    c_.allocate(info, alloc_[j]);
    stop(j);
    c_.allocate(info, a);
    touch(a);
    alloc_[j] = a;
    used_[info.vc] += info.num_gpus;
    status_[j] = JobStatus::Running;
    run_pos_[j] = static_cast<int32_t>(running_.size());
    running_.push_back(j);
    launch(j, o_.migration.for_gpus(info.num_gpus));
    ++res_.jobs[j].migrations;
    ++res_.migrations;
  }
  void wake_at(double t) override {
    if (!(t > now_)) t = now_;
    if (t == now_ || wakes_.count(t)) return;
    wakes_.insert(t);
    events_.push(t, Ev{-1});
  }

 private:
  JobId check_id(JobId j) const {
    if (j < 0 || static_cast<size_t>(j) >= jobs_.size())
      throw Error("policy '" + o_.policy + "' referred to job " + std::to_string(j) + ", which does not exist");
    return j;
  }
  [[noreturn]] void reject(JobId j, const std::string& why) const {
    throw Error("policy '" + o_.policy + "' (placer '" + o_.placer + "') made an invalid decision at t=" +
                std::to_string(now_) + " for job " + std::to_string(j) + ": " + why);
  }

  // Arrival, or the resubmission of a failed job (a retry).
  void submit(JobId j) {
    status_[j] = JobStatus::Pending;
    queued_since_[j] = now_;
    ++pending_;
    if (o_.sample_interval > 0) pending_ids_.insert(static_cast<size_t>(j));
    policy_->on_submit(j, *this);
  }

  // Schedules the end of job j's current run, which begins with `penalty` seconds of restore.
  void launch(JobId j, double penalty) {
    const auto& a = alloc_[j];
    if (!att_.empty() && att_[j].state == kUndecided) decide_attempt(j);
    double slow = 1;
    // Distinct nodes and racks without allocating (allocations are small).
    int nodes = 0, racks = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      bool new_node = true, new_rack = true;
      const int rack = c_.node(a[i].node).rack;
      for (size_t k = 0; k < i; ++k) {
        new_node = new_node && a[k].node != a[i].node;
        new_rack = new_rack && c_.node(a[k].node).rack != rack;
      }
      nodes += new_node;
      racks += new_rack;
    }
    const int per = std::max(1, c_.max_node_gpus());
    const int need = std::max(1, (jobs_[j].info.num_gpus + per - 1) / per);
    if (o_.slowdown && !links_)
      slow = 1 + o_.slowdown_per_extra_node * std::max(0, nodes - need) + o_.slowdown_per_extra_rack * std::max(0, racks - 1);
    const bool linked = links_ && nodes > 1 && jobs_[j].comm_gbps > 0;
    if (linked) {
      links_->add(j, a, need, jobs_[j].comm_gbps);
      slow = links_->slowdown(j);
    }
    const bool congested = !cong_.empty() && nodes > 1;
    if (congested) {
      auto& cj = cong_[j];
      cj.base = static_cast<float>(slow);
      for (const auto& sl : a) {
        const int r = c_.node(sl.node).rack;
        if (std::find(cj.racks.begin(), cj.racks.end(), r) == cj.racks.end()) {
          cj.racks.push_back(r);
          rack_jobs_[r].push_back(j);
        }
      }
      slow = congested_slowdown(j);
    }
    slow_[j] = slow;
    auto& rec = res_.jobs[j];
    rec.nodes = static_cast<int16_t>(std::min(nodes, 32767));
    rec.racks = static_cast<int16_t>(std::min(racks, 32767));
    rec.slowdown = static_cast<float>(slow);
    run_start_[j] = now_;
    seg_start_[j] = now_;
    seg_penalty_[j] = penalty;
    double left = attempt_dur(j) - executed_[j];
    if (left < 0) left = 0;
    end_event_[j] = events_.push(now_ + penalty + left * slow, Ev{j});
    if (congested) retime_neighbours(j);
    if (linked) retime(links_->neighbours(j), [&](JobId k) { return links_->slowdown(k); });
  }

  // Whether this attempt of job j fails and how long it runs, fixed when it first starts: the
  // first attempt of a failed job fails at its trace duration; a retry fails again unless its
  // cause is transient, it avoids the node the first attempt started on, or it got more memory.
  void decide_attempt(JobId j) {
    const auto& f = jobs_[j].failure;
    auto& at = att_[j];
    bool fails = f.fails;
    double dur = jobs_[j].duration;
    if (fails && res_.jobs[j].failed_attempts == 0) {
      if (!alloc_[j].empty()) at.bad_node = alloc_[j][0].node;
    } else if (fails) {
      bool on_bad_node = false;
      for (const auto& sl : alloc_[j]) on_bad_node = on_bad_node || sl.node == at.bad_node;
      fails = f.cause == FailureCause::Persistent || (f.cause == FailureCause::Node && on_bad_node) ||
              (f.cause == FailureCause::Memory && !at.more_memory);
      if (!fails && f.retry_duration >= 0) dur = f.retry_duration;
    }
    at.state = fails ? kFails : kSucceeds;
    at.dur = dur;
  }

  // Congestion: base slowdown plus the factor per other multi-node job on j's busiest rack.
  double congested_slowdown(JobId j) const {
    size_t most = 1;
    for (int r : cong_[j].racks) most = std::max(most, rack_jobs_[r].size());
    return cong_[j].base + o_.congestion_per_job * static_cast<double>(most - 1);
  }
  // Re-times the running multi-node jobs that share a rack with j (in id order), after j started
  // or stopped.
  void retime_neighbours(JobId j) {
    std::vector<JobId> near;
    for (int r : cong_[j].racks)
      for (JobId k : rack_jobs_[r])
        if (k != j) near.push_back(k);
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    retime(near, [&](JobId k) { return congested_slowdown(k); });
  }
  // Re-times running jobs whose slowdown may have changed (in the order given): progress so far
  // at the old speed, the rest at the new one.
  template <class Slowdown>
  void retime(const std::vector<JobId>& near, Slowdown slowdown_of) {
    for (JobId k : near) {
      const float s = static_cast<float>(slowdown_of(k));
      if (s == slow_[k]) continue;
      executed_[k] = std::min(executed(k), attempt_dur(k));
      seg_penalty_[k] = std::max(0.0, seg_start_[k] + seg_penalty_[k] - now_);
      seg_start_[k] = now_;
      slow_[k] = s;
      events_.cancel(end_event_[k]);
      end_event_[k] = events_.push(now_ + seg_penalty_[k] + std::max(0.0, attempt_dur(k) - executed_[k]) * s, Ev{k});
      res_.jobs[k].slowdown = std::max(res_.jobs[k].slowdown, s);
    }
  }

  // FGD score of the cluster (thousandths of a GPU), as sched::cluster_fragmentation computes it:
  // node values are cached and recomputed only for nodes whose allocation changed since the last
  // sample, then summed in node order (so the sum is the same to the last bit).
  void touch(const Allocation& a) {
    if (!o_.fgd_samples) return;
    for (const auto& sl : a)
      if (!frag_dirty_[sl.node]) {
        frag_dirty_[sl.node] = 1;
        dirty_nodes_.push_back(sl.node);
      }
  }
  double fgd_score() {
    std::vector<int> free(static_cast<size_t>(c_.max_node_gpus()) + 1);
    for (int n : dirty_nodes_) {
      node_frag_[n] = sched::node_fragmentation(sched::node_free(c_, n, free.data()), workload_);
      frag_dirty_[n] = 0;
    }
    dirty_nodes_.clear();
    double sum = 0;
    for (double f : node_frag_) sum += f;
    return sum;
  }

  // Gives (hide = true) or returns the free resources of `nodes` to a placeholder, so the placer
  // cannot choose them; the bookkeeping is restored exactly.
  void block_nodes(const std::vector<int32_t>& nodes, bool hide) {
    if (hide) blocks_.clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
      const int n = nodes[i];
      if (hide) {
        Block b;
        for (int g = 0; g < c_.node(n).gpus; ++g)
          if (int f = c_.gpu_free_milli(n, g); f > 0) b.a.push_back(sched::GpuSlice{n, g, f});
        b.info.num_gpus = static_cast<int32_t>(b.a.size());
        if (b.a.empty()) b.a.push_back(sched::GpuSlice{n, -1, 0});
        b.info.cpu_milli = c_.node(n).cpu_milli > 0 ? c_.free_cpu(n) : 0;
        b.info.memory_mib = c_.node(n).memory_mib > 0 ? c_.free_memory(n) : 0;
        c_.allocate(b.info, b.a);
        touch(b.a);
        blocks_.push_back(std::move(b));
      } else {
        c_.release(blocks_[i].info, blocks_[i].a);
      }
    }
  }

  // Ends the current run of job j (preempt/migrate/finish): progress, GPUs, running list.
  void stop(JobId j) {
    integrate(now_);
    executed_[j] = executed(j);
    if (executed_[j] > attempt_dur(j)) executed_[j] = attempt_dur(j);
    if (!att_.empty()) {
      const auto& info = jobs_[j].info;
      att_[j].gpu_s += info.num_gpus * (std::min(info.gpu_milli, 1000) / 1000.0) * (now_ - run_start_[j]);
    }
    c_.release(jobs_[j].info, alloc_[j]);
    touch(alloc_[j]);
    used_[jobs_[j].info.vc] -= jobs_[j].info.num_gpus;
    int32_t p = run_pos_[j];
    JobId last = running_.back();
    running_[p] = last;
    run_pos_[last] = p;
    running_.pop_back();
    run_pos_[j] = -1;
    events_.cancel(end_event_[j]);  // no-op when it is the event being handled
    if (!cong_.empty() && !cong_[j].racks.empty()) {
      for (int r : cong_[j].racks) rack_jobs_[r].erase(std::find(rack_jobs_[r].begin(), rack_jobs_[r].end(), j));
      retime_neighbours(j);
      cong_[j].racks.clear();
    }
    if (links_ && links_->tracked(j)) {
      const std::vector<JobId> near = links_->neighbours(j);
      links_->remove(j);
      retime(near, [&](JobId k) { return links_->slowdown(k); });
    }
  }

  // The current attempt of job j ran to its end: the job finishes, or its attempt failed and it
  // is retried (resubmitted after retry_delay) or ends failed.
  void end_attempt(JobId j) {
    auto& rec = res_.jobs[j];
    stop(j);
    if (att_.empty() || att_[j].state != kFails)
      return finish(j, rec.failed_attempts > 0 ? JobOutcome::Recovered : JobOutcome::Completed);
    ++rec.failed_attempts;
    auto& at = att_[j];
    rec.wasted_gpu_s += at.gpu_s;
    const auto& f = jobs_[j].failure;
    if (o_.max_retries <= 0) return finish(j, JobOutcome::Failed);
    if (f.action == workload::FailureAction::DoNotRetry) return finish(j, JobOutcome::NotRetried);
    if (rec.retries >= o_.max_retries) return finish(j, JobOutcome::RetriesExhausted);
    ++rec.retries;
    if (f.action == workload::FailureAction::ResubmitExcludeNode) exclude_nodes_of_attempt(j);
    if (f.action == workload::FailureAction::ResubmitMoreMemory) at.more_memory = 1;
    alloc_[j].clear();
    executed_[j] = 0;
    next_penalty_[j] = 0;
    at.gpu_s = 0;
    at.state = kUndecided;
    at.dur = jobs_[j].duration;
    status_[j] = JobStatus::NotSubmitted;
    policy_->on_finish(j, *this);
    if (o_.retry_delay > 0) {
      events_.push(now_ + o_.retry_delay, Ev{-(j + 2)});
    } else {
      submit(j);
    }
  }

  // resubmit_exclude_node: the retry avoids every node of the failed attempts, unless the rest of
  // the cluster (or VC partition) is too small for the job, in which case nothing is excluded.
  void exclude_nodes_of_attempt(JobId j) {
    auto& ex = att_[j].excluded;
    for (const auto& sl : alloc_[j]) ex.push_back(sl.node);
    std::sort(ex.begin(), ex.end());
    ex.erase(std::unique(ex.begin(), ex.end()), ex.end());
    const auto& info = jobs_[j].info;
    int64_t gpus = 0, hosts = 0;
    for (int n = 0; n < c_.num_nodes(); ++n) {
      if (std::binary_search(ex.begin(), ex.end(), n)) continue;
      ++hosts;
      if (info.gpu_type < 0 || c_.node(n).gpu_type == info.gpu_type) gpus += c_.node(n).gpus;
    }
    if (hosts == 0 || gpus < info.num_gpus) ex.clear();
  }

  // Job j leaves the system (its last run already stopped).
  void finish(JobId j, JobOutcome outcome) {
    res_.jobs[j].outcome = outcome;
    alloc_[j].clear();
    alloc_[j].shrink_to_fit();
    status_[j] = JobStatus::Finished;
    res_.jobs[j].end = now_;
    last_end_ = std::max(last_end_, now_);
    ++finished_;
    policy_->on_finish(j, *this);
  }

  // Accumulates allocated GPU-time up to t.
  void integrate(double t) {
    if (t > last_time_) {
      double used = static_cast<double>(c_.used_milli()) / 1000.0;
      res_.gpu_seconds += used * (t - last_time_);
      interval_gpu_s_ += used * (t - last_time_);
      last_time_ = t;
    }
  }

  // Moves the clock to t, taking time-series samples at interval boundaries on the way.
  void advance(double t) {
    while (next_sample_ <= t) {
      integrate(next_sample_);
      take_sample(next_sample_);
      next_sample_ += o_.sample_interval;
    }
    integrate(t);
    now_ = t;
  }

  void take_sample(double at) {
    // The up-front check (sim/run/simulation.cpp) sees only the submit span; the run can last
    // much longer, so the cap is held here too.
    if (static_cast<int64_t>(res_.samples.size()) >= o_.max_samples)
      throw ConfigError(fmt::format("sim.sample_interval_s = {} s: the time series reached sim.max_samples = {} "
                                    "samples at simulated time {:.0f} s; raise sim.sample_interval_s or "
                                    "sim.max_samples",
                                    o_.sample_interval, o_.max_samples, at - origin_));
    Sample s;
    s.time = at - origin_;
    s.util = c_.total_gpus() > 0 ? interval_gpu_s_ / (o_.sample_interval * c_.total_gpus()) : 0;
    interval_gpu_s_ = 0;
    s.used_gpus = static_cast<double>(c_.used_milli()) / 1000.0;
    s.pending = static_cast<int64_t>(pending_);
    s.running = static_cast<int64_t>(running_.size());
    // The oldest pending job: ids are in submit order, so the smallest pending id.
    if (!pending_ids_.empty()) {
      const auto& h = jobs_[pending_ids_.min()].info;
      const int need = std::min(std::max(h.num_gpus, 1), c_.max_node_gpus());
      for (int k = 1; k < need; ++k) s.frag_gpus += static_cast<double>(k) * c_.count_with_free(k);
    }
    if (o_.fgd_samples) s.fgd = fgd_score() / 1000.0;
    res_.samples.push_back(s);
  }

  sched::ClusterState c_;
  const std::vector<EngineJob>& jobs_;
  std::vector<int> quota_, used_;
  EngineOptions o_;
  std::vector<sched::DemandClass> workload_;
  const EngineProgress& progress_;
  std::unique_ptr<sched::Policy> policy_;
  std::unique_ptr<sched::Placer> placer_;
  EventQueue<Ev> events_;
  std::set<double> wakes_;
  std::vector<JobStatus> status_;
  struct Block {
    sched::JobInfo info;
    Allocation a;
  };
  enum : uint8_t { kUndecided, kFails, kSucceeds };
  std::vector<double> executed_, run_start_, next_penalty_, queued_since_;
  // The current run's progress segment (restarted when congestion changes its speed).
  std::vector<double> seg_start_, seg_penalty_;
  // The current attempt of a job that may fail: run time, GPU-time so far, outcome, and what its
  // retries carry (the node the first attempt started on, more memory, nodes to avoid).
  struct Attempt {
    double dur = 0, gpu_s = 0;
    int32_t bad_node = -1;
    uint8_t state = kUndecided, more_memory = 0;
    std::vector<int32_t> excluded;  // sorted
  };
  std::vector<Attempt> att_;  // by job; empty when no job fails
  double attempt_dur(JobId j) const { return att_.empty() ? jobs_[j].duration : att_[j].dur; }
  std::vector<Block> blocks_;
  std::vector<float> slow_;
  // Congestion: a running multi-node job's slowdown without congestion and its racks; the
  // running multi-node jobs per rack. Empty when congestion is off.
  struct Congestion {
    float base = 1;
    std::vector<int32_t> racks;
  };
  std::vector<Congestion> cong_;
  std::unique_ptr<LinkModel> links_;  // links slowdown model; null otherwise
  std::vector<std::vector<JobId>> rack_jobs_;
  std::vector<EventId> end_event_;
  std::vector<Allocation> alloc_;
  std::vector<int32_t> run_pos_;
  std::vector<JobId> running_;
  Allocation scratch_;
  size_t pending_ = 0, finished_ = 0;
  IdSet pending_ids_;  // pending jobs, kept while sampling (the oldest one sets frag_gpus)
  // FGD samples: each node's fragmentation as of its last change, and the nodes changed since.
  std::vector<double> node_frag_;
  std::vector<uint8_t> frag_dirty_;
  std::vector<int32_t> dirty_nodes_;
  double now_ = 0, first_submit_ = 0, origin_ = 0, last_time_ = 0, last_end_ = 0, next_sample_ = kInf, interval_gpu_s_ = 0;
  EngineResult res_;
};

EngineResult run_engine(sched::ClusterState cluster, const std::vector<EngineJob>& jobs, const std::vector<int>& vc_quota,
                        const EngineOptions& opts, const std::vector<sched::DemandClass>& workload,
                        const EngineProgress& progress) {
  Engine e(std::move(cluster), jobs, vc_quota, opts, workload, progress);
  return e.run();
}

}  // namespace mlsys::sim
