#pragma once
// Accuracy measures SchedMate reports about itself (evaluate mode, tests): failure classification,
// remaining-time error and stall detection on generated logs.
#include <map>
#include <string>
#include <vector>

#include "core/util/json.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"

namespace mlsys::schedmate {

struct ClassificationReport {
  std::map<std::string, double> f1;  // per category
  double macro_f1 = 0;
  double accuracy = 0;
  int user_error_retries = 0;        // plain resubmits recommended for user errors (must be 0)
  std::vector<std::string> mistakes; // "case: truth -> predicted"
  Json to_json() const;
};
ClassificationReport evaluate_classification(const std::vector<LogCase>& cases, Analyzer& analyzer);

struct TrackerReport {
  double max_remaining_error = 0;   // at 5% of the run, over runs without failure
  double mean_remaining_error = 0;
  int runs = 0;
  double max_stall_delay_gaps = 0;  // (flag time - last progress) / usual gap, over hung runs
  int stalls_expected = 0, stalls_flagged = 0;
  std::vector<std::string> formats_unrecognised;
  Json to_json() const;
};
// `seen_fraction`: how much of each run is seen before the remaining time is judged.
TrackerReport evaluate_tracker(const std::vector<LogCase>& cases, const TrackerOptions& opt, double seen_fraction = 0.05);

// Template mining on a loghub *_structured.csv (Content and EventId columns).
struct MiningReport {
  size_t lines = 0, groups = 0, truth_groups = 0;
  double grouping_accuracy = 0;
};
MiningReport evaluate_mining(const std::string& structured_csv);

}  // namespace mlsys::schedmate
