#pragma once
// Failure Handler: reads a failed or stalled job's log and names the category, the evidence line
// and the recommended action.
#include <cmath>
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

// What the Metric Tracker saw of the run before the failure handler reads its log.
struct RunEvidence {
  bool progressed = false;  // at least one progress line
  bool stalled = false;     // progress stopped for much longer than its usual gap
  // MLPerf logs: the last evaluation's quality and the benchmark's target (NaN when not known).
  double quality = NAN, quality_target = NAN;
};

// Embedded rule-based diagnosis of a whole log. The strongest rule matching a line names the
// category (the first such line is the evidence). Without a rule: an MLPerf run_stop with a status
// other than success is run/not_converged; a run_stop without a status (not logged, or hidden by an
// evaluation) is judged by the run's last evaluation against the benchmark's target (below it:
// run/not_converged, evidence the last eval_accuracy line; at or above it: a success); a stalled run
// is run/hang; an error line (a crash, a truncated traceback) is run/crash_after_progress when the
// run had made progress, else unknown. An MLPerf run_stop with status success, or without a status
// after an evaluation that reached the target, means the run succeeded, whatever else its log says.
Diagnosis diagnose_lines(const std::vector<std::string>& lines, const RunEvidence& run = {});
Diagnosis diagnose_text(std::string_view text, const RunEvidence& run = {});

// Fills action and advice from the category (the one mapping, see action_for()).
void finalize_diagnosis(Diagnosis& d);

std::vector<std::string> split_lines(std::string_view text);

}  // namespace mlsys::schedmate
