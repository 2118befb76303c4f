#pragma once
// The order in which an online estimator sees a trace: jobs by submit time, and the jobs that can
// enter a history by finish time (submit + duration). Walking both, a job's history is every job
// whose finish is at or before its submit time. Shared by the Helios-style and GBDT estimators.
#include <cstddef>
#include <vector>

#include "sched/workload/job.hpp"

namespace mlsys::workload {

struct OnlineOrder {
  std::vector<size_t> by_submit;  // every job, by submit time (stable)
  std::vector<size_t> by_end;     // jobs with a finite finish time, by finish time (stable)
};

OnlineOrder online_order(const std::vector<JobSpec>& jobs);

inline double finish_time(const JobSpec& j) { return j.submit_time + j.duration; }

}  // namespace mlsys::workload
