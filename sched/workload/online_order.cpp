#include "sched/workload/online_order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mlsys::workload {

OnlineOrder online_order(const std::vector<JobSpec>& jobs) {
  OnlineOrder o;
  o.by_submit.resize(jobs.size());
  std::iota(o.by_submit.begin(), o.by_submit.end(), 0);
  for (size_t i = 0; i < jobs.size(); ++i)
    if (std::isfinite(finish_time(jobs[i]))) o.by_end.push_back(i);
  std::stable_sort(o.by_submit.begin(), o.by_submit.end(),
                   [&](size_t a, size_t b) { return jobs[a].submit_time < jobs[b].submit_time; });
  std::stable_sort(o.by_end.begin(), o.by_end.end(),
                   [&](size_t a, size_t b) { return finish_time(jobs[a]) < finish_time(jobs[b]); });
  return o;
}

}  // namespace mlsys::workload
