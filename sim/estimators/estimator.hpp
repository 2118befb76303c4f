#pragma once
// Duration estimators for SJF, QSSF, SRTF and EASY: a registry (one file each). Estimates are
// computed for the whole trace before simulating, online in trace time: the estimate of a job
// uses only jobs that finished (submit + duration in the trace) before it was submitted.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/registry/registry.hpp"
#include "sim/engine/engine.hpp"
#include "sim/model/job.hpp"

namespace mlsys::sim {

struct EstimatorOptions {
  std::string hints_file;   // `hints`: CSV job_id,predicted_duration_s,uncertainty_s,failure_action
  double default_s = 3600;  // when nothing is known yet
};

struct Estimates {
  std::vector<double> value;                // seconds, by job index
  std::map<std::string, int64_t> sources;   // how many estimates came from where
  int64_t fallbacks = 0;                    // `hints`: jobs missing from the file (helios used)
};

class Estimator {
 public:
  virtual ~Estimator() = default;
  virtual Estimates estimate(const std::vector<JobSpec>& jobs, const EstimatorOptions& o) = 0;
};

using EstimatorRegistry = Registry<Estimator>;
EstimatorRegistry& estimator_registry();
std::vector<std::string> estimator_names();

// One row of the hints CSV SchedMate writes (`job_id,predicted_duration_s,uncertainty_s,failure_action`).
struct Hint {
  double duration = 0;
  RetryAction action = RetryAction::Resubmit;  // an empty column means resubmit
};
// Reads and validates a hints file (errors name file:line:column), keyed by the trace's job id.
std::unordered_map<std::string, Hint> read_hints(const std::string& path);

// The Helios-style history estimator, also the fallback of `hints`.
Estimates helios_estimates(const std::vector<JobSpec>& jobs, const EstimatorOptions& o);

}  // namespace mlsys::sim
