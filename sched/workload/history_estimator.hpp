#pragma once
// The Helios-style history estimator (Hu et al., SC'21, QSSF), the one both the simulator
// (`sim.estimator: helios`, and the fallback of `hints`) and SchedMate's evaluation baseline use.
// A job's estimate is the mean duration of the same user's earlier jobs with the same name, else
// with a similar name (the same once trailing digits and - _ . are stripped), else of any user's
// jobs with a similar name, else of the user's jobs, else of all jobs, else `default_s`. Online in
// trace time: only jobs that finished (submit + duration) at or before the job's submit time count;
// a job whose duration is unknown (not finite) never enters the history.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sched/workload/job.hpp"

namespace mlsys::workload {

struct DurationEstimates {
  std::vector<double> value;               // seconds, parallel to the jobs
  std::map<std::string, int64_t> sources;  // how many estimates came from where ("user+name", ...)
};

// Reads user, name, submit_time and duration of each job; `jobs` need not be sorted.
DurationEstimates helios_estimates(const std::vector<JobSpec>& jobs, double default_s);

}  // namespace mlsys::workload
