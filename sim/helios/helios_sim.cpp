#include "sim/helios/helios_sim.hpp"

#include <algorithm>
#include <queue>

#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"

namespace mlsys::sim::helios {
namespace {

// Helios' consolidate placer on one VC's nodes (see the reference README).
class Consolidate {
 public:
  Consolidate(int nodes, int per_node) : free_(static_cast<size_t>(nodes), per_node), per_node_(per_node) {
    total_free_ = nodes * per_node;
  }
  bool place(int g, std::vector<std::pair<int, int>>& out) {
    out.clear();
    if (total_free_ < g) return false;
    const int n = static_cast<int>(free_.size());
    if (g <= per_node_) {
      int best = -1;
      for (int i = 0; i < n; ++i)
        if (free_[i] >= g && (best < 0 || free_[i] < free_[best])) best = i;
      if (best < 0) return false;
      out.emplace_back(best, g);
    } else {
      const int full = g / per_node_, rest = g % per_node_;
      for (int i = 0; i < n && static_cast<int>(out.size()) < full; ++i)
        if (free_[i] == per_node_) out.emplace_back(i, per_node_);
      if (static_cast<int>(out.size()) < full) {
        out.clear();
        return false;
      }
      if (rest > 0) {
        int best = -1;
        for (int i = 0; i < n; ++i) {
          bool taken = false;
          for (auto& [m, c] : out) taken = taken || m == i;
          if (!taken && (best < 0 || free_[i] > free_[best])) best = i;
        }
        if (best < 0 || free_[best] < rest) {
          out.clear();
          return false;
        }
        out.emplace_back(best, rest);
      }
    }
    for (auto& [i, c] : out) free_[i] -= c;
    total_free_ -= g;
    return true;
  }
  void release(const std::vector<std::pair<int, int>>& nodes) {
    for (auto& [i, c] : nodes) {
      free_[i] += c;
      total_free_ += c;
    }
  }

 private:
  std::vector<int> free_;
  int per_node_;
  int total_free_ = 0;
};

int64_t penalty(int gpus) { return gpus <= 1 ? 7 : (gpus <= 8 ? 30 : 60); }

void validate(const std::vector<Job>& jobs, const std::vector<int>& idx, const std::string& vc, int capacity) {
  for (int i : idx) {
    const Job& j = jobs[i];
    if (j.gpus > capacity || j.gpus <= 0)
      throw InputError("helios mode: job " + j.name + " of VC " + vc + " needs " + std::to_string(j.gpus) +
                       " GPUs but the VC has " + std::to_string(capacity) +
                       " (the Helios simulator would wait forever); give the VC more nodes or filter the job out");
    if (j.duration < 1)
      throw InputError("helios mode: job " + j.name + " has duration " + std::to_string(j.duration) +
                       " s; the Helios simulator needs whole durations >= 1 s (it would loop forever)");
  }
}

}  // namespace

const std::vector<std::string>& policies() {
  static const std::vector<std::string> p = {"fifo", "sjf", "srtf", "qssf"};
  return p;
}

namespace {

// One VC's simulation state, indexed by position p in the VC's job list (`indices`).
struct VcRun {
  VcRun(const std::vector<Job>& all, const std::vector<int>& idx, int nodes, int gpus_per_node,
        const std::string& policy)
      : jobs(all), indices(idx), n(static_cast<int>(idx.size())), capacity(nodes * gpus_per_node),
        gpus(n), submit(n), dur(n), pr(n, 0), has_p(n, 0), arrivals(n), r(static_cast<size_t>(n)),
        placer(nodes, gpus_per_node), alloc(n),
        loop("Helios " + policy, static_cast<uint64_t>(n), "jobs finished", LongLoop::Report()) {
    for (int p = 0; p < n; ++p) {
      const Job& j = jobs[indices[p]];
      gpus[p] = j.gpus;
      submit[p] = j.submit;
      dur[p] = j.duration;
      pr[p] = j.priority_p;
      has_p[p] = j.has_priority_p;
    }
    for (int p = 0; p < n; ++p) arrivals[p] = p;
    std::stable_sort(arrivals.begin(), arrivals.end(), [&](int a, int b) { return submit[a] < submit[b]; });
    t = n > 0 ? std::min<int64_t>(0, submit[arrivals[0]]) : 0;
  }

  // Queues the jobs submitted at tick t (in submit order); whether there were any.
  bool admit_arrivals() {
    bool any = false;
    while (next_arrival < arrivals.size() && submit[arrivals[next_arrival]] == t) {
      queue.push_back(arrivals[next_arrival++]);
      any = true;
    }
    return any;
  }
  // The next tick anything can happen: an arrival, `next_event`, or t + 1 while a busy tick left
  // jobs queued (the reference simulator steps one tick then).
  int64_t next_tick(int64_t next_event, bool quiet) const {
    int64_t next = next_event;
    if (next_arrival < arrivals.size()) next = std::min(next, submit[arrivals[next_arrival]]);
    if (!quiet && !queue.empty()) next = std::min(next, t + 1);
    return next;
  }

  const std::vector<Job>& jobs;
  const std::vector<int>& indices;
  const int n;
  const int capacity;
  std::vector<int> gpus;
  std::vector<int64_t> submit, dur, pr;
  std::vector<char> has_p;
  std::vector<int> arrivals;  // positions in submit order (stable)
  std::vector<JobResult> r;
  Consolidate placer;
  std::vector<std::vector<std::pair<int, int>>> alloc;
  LongLoop loop;  // stop checks by time (the VCs run in parallel; the mode shows progress per VC)
  size_t next_arrival = 0;
  int done = 0;
  int64_t t = 0;
  std::vector<int> queue;  // pending, in list order
};

// QSSF's order once any queued job has waited: each job's priority (its priority-file value
// times its GPUs), set once. Returns whether a priority was set this tick.
bool order_qssf(VcRun& s, std::vector<char>& prio_set) {
  auto& q = s.queue;
  std::stable_sort(q.begin(), q.end(), [&](int a, int b) { return s.gpus[a] < s.gpus[b]; });
  bool older = false;
  for (int p : q) older = older || s.submit[p] < s.t;
  if (!older) return false;
  bool changed = false;
  for (int p : q) {
    if (prio_set[p]) continue;
    if (!s.has_p[p])
      throw InputError("helios mode: QSSF needs a priority for job " + s.jobs[s.indices[p]].name +
                       " (the priority file has no row for it)");
    s.r[p].priority = s.pr[p] * s.gpus[p];
    prio_set[p] = 1;
    changed = true;
  }
  std::stable_sort(q.begin(), q.end(), [&](int a, int b) { return s.r[a].priority < s.r[b].priority; });
  return changed;
}

// FIFO, SJF and QSSF: the queue in the policy's order, jobs started from its head until one
// does not fit; no preemption.
void run_without_preemption(VcRun& s, const std::string& policy, const std::string& vc, VcResult& res) {
  using End = std::pair<int64_t, int>;
  std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
  std::vector<char> prio_set(static_cast<size_t>(s.n), 0);
  while (s.done < s.n) {
    s.loop.tick(static_cast<uint64_t>(s.done));
    ++res.ticks_processed;
    bool quiet = true;
    while (!ends.empty() && ends.top().first == s.t) {
      s.placer.release(s.alloc[ends.top().second]);
      ends.pop();
      ++s.done;
      quiet = false;
    }
    if (s.admit_arrivals()) quiet = false;
    if (policy == "sjf") {
      std::stable_sort(s.queue.begin(), s.queue.end(), [&](int a, int b) { return s.dur[a] < s.dur[b]; });
    } else if (policy == "qssf") {
      if (order_qssf(s, prio_set)) quiet = false;
    }
    size_t placed = 0;
    for (; placed < s.queue.size(); ++placed) {
      const int p = s.queue[placed];
      if (!s.placer.place(s.gpus[p], s.alloc[p])) break;
      auto& jr = s.r[p];
      jr.start = s.t;
      jr.queue = s.t - s.submit[p];
      jr.end = s.t + s.dur[p];
      jr.jct = jr.end - s.submit[p];
      ends.emplace(jr.end, p);
      quiet = false;
    }
    s.queue.erase(s.queue.begin(), s.queue.begin() + static_cast<std::ptrdiff_t>(placed));
    if (s.done >= s.n) break;
    const int64_t next = s.next_tick(ends.empty() ? INT64_MAX : ends.top().first, quiet);
    if (next == INT64_MAX)
      throw Error("helios mode: VC " + vc + " stalled at t=" + std::to_string(s.t) + " with " +
                  std::to_string(s.queue.size()) + " jobs queued (internal error)");
    s.t = next;
  }
}

// SRTF: every busy tick, queued and running jobs in order of remaining time; those that fit the
// VC's GPUs run, a running job that no longer fits is preempted (and pays a restart penalty).
void run_srtf(VcRun& s, const std::string& vc, VcResult& res) {
  std::vector<int64_t> remain(s.dur);   // pending jobs: remaining ticks
  std::vector<int64_t> zero_tick(s.n);  // running jobs: tick at which remain reaches 0
  std::vector<int64_t> preempted_at(s.n, -1);
  std::vector<int> running, keep;
  struct Item {
    int64_t remain;
    int p;
    bool running;
  };
  std::vector<Item> items;
  while (s.done < s.n) {
    s.loop.tick(static_cast<uint64_t>(s.done));
    ++res.ticks_processed;
    bool quiet = true;
    keep.clear();
    for (int p : running) {
      if (zero_tick[p] + 1 == s.t) {
        s.placer.release(s.alloc[p]);
        s.r[p].end = s.t;
        s.r[p].jct = s.t - s.submit[p];
        ++s.done;
        quiet = false;
      } else {
        keep.push_back(p);
      }
    }
    running.swap(keep);
    if (s.admit_arrivals()) quiet = false;
    if (!s.queue.empty()) {
      items.clear();
      for (int p : s.queue) items.push_back({remain[p], p, false});
      for (int p : running) items.push_back({zero_tick[p] - s.t, p, true});
      std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.remain < b.remain; });
      int quota = s.capacity;
      std::vector<int> start, preempt;
      for (const auto& it : items) {
        if (s.gpus[it.p] <= quota) {
          quota -= s.gpus[it.p];
          if (!it.running) start.push_back(it.p);
        } else if (it.running) {
          preempt.push_back(it.p);
        }
      }
      for (int p : preempt) {
        remain[p] = zero_tick[p] - s.t + penalty(s.gpus[p]);
        s.placer.release(s.alloc[p]);
        preempted_at[p] = s.t;
        ++s.r[p].preemptions;
        ++res.preemptions;
        running.erase(std::find(running.begin(), running.end(), p));
        s.queue.push_back(p);
        quiet = false;
      }
      for (int p : start) {
        if (!s.placer.place(s.gpus[p], s.alloc[p])) continue;
        if (s.r[p].start < 0) {
          s.r[p].start = s.t;
          s.r[p].queue = s.t - s.submit[p];
        } else {
          s.r[p].queue += s.t - preempted_at[p];
        }
        zero_tick[p] = s.t + remain[p];
        s.queue.erase(std::find(s.queue.begin(), s.queue.end(), p));
        running.push_back(p);
        quiet = false;
      }
    }
    if (s.done >= s.n) break;
    int64_t next_end = INT64_MAX;
    for (int p : running) next_end = std::min(next_end, zero_tick[p] + 1);
    const int64_t next = s.next_tick(next_end, quiet);
    if (next == INT64_MAX)
      throw Error("helios mode: VC " + vc + " stalled at t=" + std::to_string(s.t) + " (internal error)");
    s.t = next;
  }
}

}  // namespace

VcResult simulate_vc(const std::vector<Job>& jobs, const std::vector<int>& indices, const std::string& vc,
                     int nodes, int gpus_per_node, const std::string& policy) {
  if (std::find(policies().begin(), policies().end(), policy) == policies().end())
    throw ConfigError("helios mode: unknown policy '" + policy + "'; valid: fifo, sjf, srtf, qssf");
  validate(jobs, indices, vc, nodes * gpus_per_node);
  VcResult res;
  res.vc = vc;
  res.policy = policy;
  res.job_index = indices;
  res.jobs = static_cast<int64_t>(indices.size());
  VcRun s(jobs, indices, nodes, gpus_per_node, policy);
  if (policy == "srtf")
    run_srtf(s, vc, res);
  else
    run_without_preemption(s, policy, vc, res);
  for (const auto& jr : s.r) {
    res.sum_jct += jr.jct;
    res.sum_queue += jr.queue;
    res.makespan = std::max(res.makespan, jr.end);
  }
  res.results = std::move(s.r);
  return res;
}

}  // namespace mlsys::sim::helios
