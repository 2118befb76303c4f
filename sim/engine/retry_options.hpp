#pragma once
// The failure model's options (`sim.retry.*`; see sim/engine/failures.hpp for what they do).
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::sim {

struct RetryOptions {
  std::string policy = "none";             // none | all | hints
  int max_retries = 3;                     // retries per job (policy all/hints)
  double delay_s = 0;                      // resubmission delay after a failed attempt
  bool killed = false;                     // killed jobs fail (and may be retried) like failed ones
  std::string causes_file;                 // CSV job_id,cause[,duration_s]
  std::string default_cause = "transient"; // cause of failed jobs missing from causes_file
  double success_factor = 1;               // successful retry: factor x trace duration (no duration_s)
};

// policy, max_retries, delay_s, killed, causes_file, default_cause, success_factor (nested as retry.*).
const config::Section<RetryOptions>& retry_section();
// The values of retry.policy (also swept by sim.compare.retry_policies).
const std::vector<std::string>& retry_policy_names();

}  // namespace mlsys::sim
