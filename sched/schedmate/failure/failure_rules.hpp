#pragma once
// The embedded failure rules: phrases (lower-case, runs of blanks collapsed to one space) that
// identify a category. A rule matches a line when every phrase of one of its alternatives occurs.
// Priorities pick the root cause when a log holds several symptoms (an OOM on one rank makes the
// others time out in NCCL, so gpu_oom outranks nccl_timeout).
#include <string>
#include <string_view>
#include <vector>

#include "sched/schedmate/failure/failure_types.hpp"

namespace mlsys::schedmate {

struct FailureRule {
  FailureCategory category;
  int priority;
  std::vector<std::vector<std::string>> any_of;  // alternatives; each is a list of phrases, all required
};

const std::vector<FailureRule>& failure_rules();

// Lower-cases and collapses blank runs, so rules need not care about column alignment.
std::string normalize_line(std::string_view line);

// The best rule matching a normalized line, or nullptr.
const FailureRule* match_failure_rule(const std::string& normalized);

// A line that says something failed without saying why (used for `unknown`).
bool looks_like_error(const std::string& normalized);

}  // namespace mlsys::schedmate
