#pragma once
// The hints file: the one contract between job insight and the schedulers. SchedMate writes it
// (`mlsys schedmate advise|evaluate` -> hints.csv); `mlsys simulate` reads it (`sim.estimator: hints`
// for the durations, `sim.retry.policy: hints` for the failure actions). A CSV file
//   job_id,predicted_duration_s,uncertainty_s,failure_action
// written through Table (fields quoted as RFC 4180 needs) and read through core/io/csv.hpp, so
// any job id, commas and quotes included, reads back as written. Columns are found by name;
// uncertainty_s and failure_action may be missing or empty.
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/runtime/table.hpp"
#include "sched/workload/failure_action.hpp"

namespace mlsys::workload {

struct Hint {
  std::string job_id;                // the trace's job id
  double duration_s = 0;             // predicted run time
  double uncertainty_s = NAN;        // one standard deviation (NaN: not given); the simulator ignores it
  FailureAction action = FailureAction::None;
};

// The hints file as a table, one row per hint in the given order (write it with write_csv).
Table hints_table(const std::vector<Hint>& hints);

// Reads and validates a hints file, keyed by job id (a later row of the same id wins). Errors are
// InputErrors that name file:line:column.
std::unordered_map<std::string, Hint> read_hints(const std::string& path);

}  // namespace mlsys::workload
