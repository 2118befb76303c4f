#pragma once
// Failure Handler: reads a failed or stalled job's log and names the category, the evidence line
// and the recommended action.
#include <string>
#include <string_view>
#include <vector>

#include "core/util/json.hpp"
#include "sched/schedmate/failure/failure_types.hpp"

namespace mlsys::schedmate {

struct Diagnosis {
  FailureCategory category = FailureCategory::None;
  FailureAction action = FailureAction::None;
  std::string evidence;     // the log line that decided it (trimmed, at most 300 characters)
  int64_t evidence_line = 0;  // 1-based; 0 when none
  std::string source = "embedded";  // which analyzer produced it
  std::string advice;
  Json to_json() const;
};

// Embedded rule-based diagnosis of a whole log. `stalled` says the tracker saw progress stop, so a
// log without any rule match is `unknown` rather than `none`.
Diagnosis diagnose_lines(const std::vector<std::string>& lines, bool stalled = false);
Diagnosis diagnose_text(std::string_view text, bool stalled = false);

// Fills action and advice from the category (the one mapping, see action_for()).
void finalize_diagnosis(Diagnosis& d);

std::vector<std::string> split_lines(std::string_view text);

}  // namespace mlsys::schedmate
