#pragma once
// Metric Tracker: turns a job's log lines into progress (done/total steps or epochs), throughput,
// remaining time and stall flags. Known formats are parsed directly; for an unknown format the
// first lines are mined for a progress pattern (once; never per line).
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/json.hpp"
#include "sched/schedmate/tracker/learned_format.hpp"
#include "sched/schedmate/tracker/progress_parsers.hpp"

namespace mlsys::schedmate {

struct TrackerOptions {
  double stall_factor = 2.5;      // stall: no progress for this many times the usual gap
  size_t min_gaps_for_stall = 3;  // gaps seen before stalls can be judged
  size_t learn_after_lines = 16;     // lines without a known format before a pattern is learned
  size_t relearn_after_lines = 128;  // one more try on a larger sample when the first found nothing
  double total_steps_hint = NAN;  // from the job spec (advisor facts), when the log never says
  double total_epochs_hint = NAN;
  bool keep_series = true;
  // Proposes a pattern from sample lines; the embedded learner when empty.
  std::function<std::optional<LearnedPattern>(const std::vector<std::string>&)> learner;
};

struct ProgressPoint {
  double t = 0;       // seconds (line clock)
  double done = 0;
  double total = NAN;
  double rate = NAN;  // units/s
  double remaining_s = NAN;
};

struct StallEvent {
  double last_progress_t = 0;
  double flagged_t = 0;  // earliest time at which the gap exceeded the threshold
  double usual_gap_s = 0;
  double done = 0;
};

struct TrackerSnapshot {
  LogFormat format = LogFormat::Unknown;
  bool epochs = false;
  double done = NAN, total = NAN, fraction = NAN;
  double rate = NAN, remaining_s = NAN;
  // "run" when fraction and remaining time are the run's; "epoch" when the run's length is unknown
  // and they are what the current epoch's progress bar states.
  std::string scope = "run";
  // MLPerf logs: the last evaluation's quality against the benchmark's target, and the run's state.
  double quality = NAN, quality_target = NAN;
  std::string run_status;  // "" (running or not stated), success, aborted, ...
  double run_start_t = NAN, run_stop_t = NAN;
  double last_progress_t = NAN, now_t = NAN;
  bool stalled = false;
  size_t lines = 0, progress_lines = 0;
  Json to_json() const;
};

class MetricTracker {
 public:
  explicit MetricTracker(TrackerOptions opt = {});
  // One log line. `now_s` is the caller's clock (live follow); NaN when reading a finished file.
  void feed(std::string_view line, double now_s = NAN);
  // Advances the caller's clock (same clock as feed's now_s) with no new line; returns true when
  // this call flagged a stall.
  bool tick(double now_s);
  TrackerSnapshot snapshot() const;
  const std::vector<ProgressPoint>& series() const { return series_; }
  const std::vector<StallEvent>& stalls() const { return stalls_; }
  const std::optional<LearnedPattern>& learned() const { return learned_; }
  double usual_gap() const;

 private:
  void observe(const ProgressObs& o, double t);
  bool check_stall(double now);
  void try_learn();

  TrackerOptions opt_;
  ParserState st_;
  LogFormat format_ = LogFormat::Unknown;
  bool epochs_ = false;
  size_t lines_ = 0, progress_lines_ = 0;
  double clock_ = NAN;           // latest time seen
  double first_t_ = NAN, first_done_ = NAN;
  double last_t_ = NAN, last_done_ = NAN, total_ = NAN, rate_hint_ = NAN;
  double elapsed_origin_ = NAN;  // tqdm elapsed clock when no absolute timestamps exist
  double bar_fraction_ = NAN, bar_remaining_ = NAN;  // what the last progress bar stated
  bool bar_is_run_ = false;
  std::vector<double> gaps_;     // ring of recent progress gaps
  size_t gap_pos_ = 0;
  bool stalled_ = false;
  bool pseudo_time_ = false;  // the last progress line had no clock
  double wall_at_feed_ = NAN, line_at_feed_ = NAN;  // caller clock vs line clock at the last line
  std::vector<ProgressPoint> series_;
  std::vector<StallEvent> stalls_;
  std::vector<std::string> sample_;
  int learn_tries_ = 0;
  std::optional<LearnedPattern> learned_;
};

}  // namespace mlsys::schedmate
