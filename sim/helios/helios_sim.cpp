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
  const int n = static_cast<int>(indices.size());
  std::vector<JobResult> r(static_cast<size_t>(n));
  // Local arrays indexed by position p in `indices`.
  std::vector<int> gpus(n);
  std::vector<int64_t> submit(n), dur(n), pr(n, 0);
  std::vector<char> has_p(n, 0);
  for (int p = 0; p < n; ++p) {
    const Job& j = jobs[indices[p]];
    gpus[p] = j.gpus;
    submit[p] = j.submit;
    dur[p] = j.duration;
    pr[p] = j.priority_p;
    has_p[p] = j.has_priority_p;
  }
  std::vector<int> arrivals(n);
  for (int p = 0; p < n; ++p) arrivals[p] = p;
  std::stable_sort(arrivals.begin(), arrivals.end(), [&](int a, int b) { return submit[a] < submit[b]; });

  Consolidate placer(nodes, gpus_per_node);
  std::vector<std::vector<std::pair<int, int>>> alloc(n);
  size_t next_arrival = 0;
  int done = 0;
  int64_t t = n > 0 ? std::min<int64_t>(0, submit[arrivals[0]]) : 0;
  std::vector<int> queue;  // pending, in list order
  const int capacity = nodes * gpus_per_node;
  // Stop checks by time (the VCs run in parallel; the mode shows progress per VC).
  LongLoop loop("Helios " + policy, static_cast<uint64_t>(n), "jobs finished", LongLoop::Report());

  if (policy != "srtf") {
    using End = std::pair<int64_t, int>;
    std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
    std::vector<char> prio_set(static_cast<size_t>(n), 0);
    while (done < n) {
      loop.tick(static_cast<uint64_t>(done));
      ++res.ticks_processed;
      bool quiet = true;
      while (!ends.empty() && ends.top().first == t) {
        placer.release(alloc[ends.top().second]);
        ends.pop();
        ++done;
        quiet = false;
      }
      while (next_arrival < arrivals.size() && submit[arrivals[next_arrival]] == t) {
        queue.push_back(arrivals[next_arrival++]);
        quiet = false;
      }
      if (policy == "sjf") {
        std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return dur[a] < dur[b]; });
      } else if (policy == "qssf") {
        std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return gpus[a] < gpus[b]; });
        bool older = false;
        for (int p : queue) older = older || submit[p] < t;
        if (older) {
          for (int p : queue) {
            if (prio_set[p]) continue;
            if (!has_p[p])
              throw InputError("helios mode: QSSF needs a priority for job " + jobs[indices[p]].name +
                               " (the priority file has no row for it)");
            r[p].priority = pr[p] * gpus[p];
            prio_set[p] = 1;
            quiet = false;
          }
          std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return r[a].priority < r[b].priority; });
        }
      }
      size_t placed = 0;
      for (; placed < queue.size(); ++placed) {
        int p = queue[placed];
        if (!placer.place(gpus[p], alloc[p])) break;
        r[p].start = t;
        r[p].queue = t - submit[p];
        r[p].end = t + dur[p];
        r[p].jct = r[p].end - submit[p];
        ends.emplace(r[p].end, p);
        quiet = false;
      }
      queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(placed));
      if (done >= n) break;
      int64_t next = INT64_MAX;
      if (next_arrival < arrivals.size()) next = submit[arrivals[next_arrival]];
      if (!ends.empty()) next = std::min(next, ends.top().first);
      if (!quiet && !queue.empty()) next = std::min(next, t + 1);
      if (next == INT64_MAX)
        throw Error("helios mode: VC " + vc + " stalled at t=" + std::to_string(t) + " with " +
                    std::to_string(queue.size()) + " jobs queued (internal error)");
      t = next;
    }
  } else {
    std::vector<int64_t> remain(dur);    // pending jobs: remaining ticks
    std::vector<int64_t> zero_tick(n);   // running jobs: tick at which remain reaches 0
    std::vector<int64_t> preempted_at(n, -1);
    std::vector<int> running;
    struct Item {
      int64_t remain;
      int p;
      bool running;
    };
    std::vector<Item> items;
    std::vector<int> keep;
    while (done < n) {
      loop.tick(static_cast<uint64_t>(done));
      ++res.ticks_processed;
      bool quiet = true;
      keep.clear();
      for (int p : running) {
        if (zero_tick[p] + 1 == t) {
          placer.release(alloc[p]);
          r[p].end = t;
          r[p].jct = t - submit[p];
          ++done;
          quiet = false;
        } else {
          keep.push_back(p);
        }
      }
      running.swap(keep);
      while (next_arrival < arrivals.size() && submit[arrivals[next_arrival]] == t) {
        queue.push_back(arrivals[next_arrival++]);
        quiet = false;
      }
      if (!queue.empty()) {
        items.clear();
        for (int p : queue) items.push_back({remain[p], p, false});
        for (int p : running) items.push_back({zero_tick[p] - t, p, true});
        std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.remain < b.remain; });
        int quota = capacity;
        std::vector<int> start, preempt;
        for (const auto& it : items) {
          if (gpus[it.p] <= quota) {
            quota -= gpus[it.p];
            if (!it.running) start.push_back(it.p);
          } else if (it.running) {
            preempt.push_back(it.p);
          }
        }
        for (int p : preempt) {
          remain[p] = zero_tick[p] - t + penalty(gpus[p]);
          placer.release(alloc[p]);
          preempted_at[p] = t;
          ++r[p].preemptions;
          ++res.preemptions;
          running.erase(std::find(running.begin(), running.end(), p));
          queue.push_back(p);
          quiet = false;
        }
        for (int p : start) {
          if (!placer.place(gpus[p], alloc[p])) continue;
          if (r[p].start < 0) {
            r[p].start = t;
            r[p].queue = t - submit[p];
          } else {
            r[p].queue += t - preempted_at[p];
          }
          zero_tick[p] = t + remain[p];
          queue.erase(std::find(queue.begin(), queue.end(), p));
          running.push_back(p);
          quiet = false;
        }
      }
      if (done >= n) break;
      int64_t next = INT64_MAX;
      if (next_arrival < arrivals.size()) next = submit[arrivals[next_arrival]];
      for (int p : running) next = std::min(next, zero_tick[p] + 1);
      if (!quiet && !queue.empty()) next = std::min(next, t + 1);
      if (next == INT64_MAX)
        throw Error("helios mode: VC " + vc + " stalled at t=" + std::to_string(t) + " (internal error)");
      t = next;
    }
  }
  for (int p = 0; p < n; ++p) {
    res.sum_jct += r[p].jct;
    res.sum_queue += r[p].queue;
    res.makespan = std::max(res.makespan, r[p].end);
  }
  res.results = std::move(r);
  return res;
}

}  // namespace mlsys::sim::helios
