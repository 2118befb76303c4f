#pragma once
// Duration estimators for SJF, QSSF, SRTF and EASY: a registry (one file each). Estimates are
// computed for the whole trace before simulating, online in trace time: the estimate of a job
// uses only jobs that finished (submit + duration in the trace) before it was submitted.
// `helios` is the workload library's history estimator (sched/workload/history_estimator.hpp);
// `hints` reads the hints file SchedMate writes (sched/workload/hints.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "sched/workload/history_estimator.hpp"
#include "sched/workload/job.hpp"

namespace mlsys::sim {

struct EstimatorOptions {
  std::string hints_file;   // `hints`: the hints CSV (job_id,predicted_duration_s,uncertainty_s,failure_action)
  double default_s = 3600;  // when nothing is known yet
};

struct Estimates : workload::DurationEstimates {  // value (seconds, by job index) and sources
  int64_t fallbacks = 0;                           // `hints`: jobs missing from the file (helios used)
};

class Estimator {
 public:
  virtual ~Estimator() = default;
  virtual Estimates estimate(const std::vector<workload::JobSpec>& jobs, const EstimatorOptions& o) = 0;
};

using EstimatorRegistry = Registry<Estimator>;
EstimatorRegistry& estimator_registry();
std::vector<std::string> estimator_names();

}  // namespace mlsys::sim
