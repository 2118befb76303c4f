#include "sim/engine/retry_options.hpp"

#include "sim/engine/failures.hpp"

namespace mlsys::sim {

const std::vector<std::string>& retry_policy_names() {
  static const std::vector<std::string> names = {"none", "all", "hints"};
  return names;
}

const config::Section<RetryOptions>& retry_section() {
  using R = RetryOptions;
  static const config::Section<R> s("retry", "Failed jobs and retries", [](auto& s) {
    s.field("policy", &R::policy, "Failed jobs: none (end at their trace time), all (resubmit every failure), hints (act on the failure_action column of sim.hints_file)")
        .choices(retry_policy_names());
    s.field("max_retries", &R::max_retries, "Retries per failed job (policies all, hints)").range(0, 1000);
    s.field("delay_s", &R::delay_s, "Seconds between a failed attempt and its resubmission").range(0, 1e12);
    s.field("killed", &R::killed, "Treat killed jobs as failed (wasted GPU-time, retries)");
    s.field("causes_file", &R::causes_file, "Ground truth of failures: CSV job_id,cause[,duration_s] (cause transient|node|memory|persistent; duration_s: run time of a successful retry)");
    s.field("default_cause", &R::default_cause, "Cause of failed jobs missing from retry.causes_file").choices_from(failure_cause_names);
    s.field("success_factor", &R::success_factor, "A successful retry runs this x the trace duration (when no duration_s is given)").range(0, 1e6);
  });
  return s;
}

}  // namespace mlsys::sim
