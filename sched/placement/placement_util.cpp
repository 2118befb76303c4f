#include "sched/placement/placement_util.hpp"

#include <vector>

namespace mlsys::sched {

bool best_fit_node(const JobInfo& job, const ClusterState& c, Allocation& out) {
  const int g = job.num_gpus;
  if (g > 0 && job.gpu_milli >= 1000) {
    if (c.total_free_gpus() < g) return false;
    for (int k = g; k <= c.max_node_gpus(); ++k)
      for (int n = c.first_with_free(k); n >= 0; n = c.next_with_free(k, n))
        if (c.can_host(n, job, g)) {
          c.pick_gpus(n, job, g, out);
          return true;
        }
    return false;
  }
  // Fractional or CPU-only: least free capacity that still fits.
  int best = -1;
  int64_t best_free = 0;
  for (int n = 0; n < c.num_nodes(); ++n) {
    if (!c.can_host(n, job, g)) continue;
    int64_t free = 0;
    if (g == 0) {
      free = c.free_cpu(n);
    } else {
      for (int i = 0; i < c.node(n).gpus; ++i) free += c.gpu_free_milli(n, i);
    }
    if (best < 0 || free < best_free) {
      best = n;
      best_free = free;
    }
  }
  if (best < 0) return false;
  c.pick_gpus(best, job, g, out);
  return true;
}

bool consolidate_multi_node(const JobInfo& job, const ClusterState& c, Allocation& out) {
  const int size = c.max_node_gpus();
  const int g = job.num_gpus;
  if (size <= 0 || c.total_free_gpus() < g) return false;
  const int full = g / size, rest = g % size;
  std::vector<int> chosen;
  for (int n = c.first_with_free(size); n >= 0 && static_cast<int>(chosen.size()) < full;
       n = c.next_with_free(size, n))
    if (c.can_host(n, job, size)) chosen.push_back(n);
  if (static_cast<int>(chosen.size()) < full) return false;
  for (int n : chosen) c.pick_gpus(n, job, size, out);
  if (rest == 0) return true;
  int best = -1;
  for (int n = 0; n < c.num_nodes(); ++n) {
    bool taken = false;
    for (int m : chosen) taken = taken || m == n;
    if (taken || c.free_gpus(n) < rest) continue;
    if ((best < 0 || c.free_gpus(n) > c.free_gpus(best)) && c.can_host(n, job, rest)) best = n;
  }
  if (best < 0) {
    out.clear();
    return false;
  }
  c.pick_gpus(best, job, rest, out);
  return true;
}

int first_fit_node(const JobInfo& job, const ClusterState& c, int gpus, int after) {
  for (int n = after + 1; n < c.num_nodes(); ++n)
    if (c.can_host(n, job, gpus)) return n;
  return -1;
}

}  // namespace mlsys::sched
