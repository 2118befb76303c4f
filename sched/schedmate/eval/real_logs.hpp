#pragma once
// The Failure Handler and the Metric Tracker on real logs, reported apart from the generated
// corpus: the labelled logs of ../shared/data/jobs/logs (labels.csv: file,label,...) and the MLPerf
// result logs with their runs.csv status as the truth. Curator annotations ("# LABEL: ...") are
// never given to the classifier.
#include <string>
#include <vector>

#include "core/runtime/table.hpp"
#include "core/util/json.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/io/bounded_input.hpp"

namespace mlsys::schedmate {

// A curator's label ("infra/gpu_hardware_ecc", "infra_or_user/host_oom_sigkill",
// "progress/no_failure") as a category: the category whose name after '/' begins the label's part
// after '/' ("gpu_hardware_ecc" -> infra/gpu_hardware); "no_failure" -> none. Throws InputError for
// a label no category explains.
FailureCategory category_for_label(const std::string& label);

struct RealLogReport {
  Table table{{"log", "truth", "category", "action", "evidence_line", "evidence", "correct"}};
  int logs = 0, correct = 0, user_error_retries = 0;
  // Tracker on every tqdm line that states n/total and elapsed<remaining.
  int tqdm_lines = 0;
  double max_fraction_error = 0, max_remaining_error = 0;  // relative to what the line states
  Json to_json() const;
};
RealLogReport evaluate_labelled_logs(const std::string& folder, Analyzer& analyzer, const InputLimits& limits);

// The log with the status of every MLPerf `run_stop` event removed (the event and its clock stay:
// the run did stop). A log's own run_stop status is the truth the MLPerf evaluation scores against,
// so the analyzer must not read it.
std::vector<std::string> hide_run_status(std::vector<std::string> lines);

struct MlperfLogReport {
  // category/action/evidence: diagnosed with the run_stop status hidden (the score);
  // category_status_visible: the same log as logged, status included (not a test of the handler).
  Table table{{"log", "status", "category", "action", "evidence_line", "evidence", "category_status_visible"}};
  int aborted = 0, aborted_explained = 0;  // aborted runs diagnosed with a category other than none/unknown
  int succeeded = 0, succeeded_clean = 0;  // successful runs diagnosed none
  int aborted_explained_visible = 0, succeeded_clean_visible = 0;  // the same with the status visible
  Json to_json() const;
};
// `runs_csv`: the MLPerf runs table; a log's truth is the status of the row whose log_path ends its
// path. Each log is diagnosed with its run_stop status hidden (hide_run_status), and, for reference,
// as logged.
MlperfLogReport evaluate_mlperf_logs(const std::string& folder, const std::string& runs_csv, Analyzer& analyzer,
                                     const InputLimits& limits);

}  // namespace mlsys::schedmate
