#pragma once
// `--follow`: reads a file that is still being written, feeding complete lines to a tracker as
// they appear. Polls with a bounded interval and always stops: when the run is finished, a failure
// line appears (caller's predicate), no new bytes arrive for idle_timeout_s, max_s passes, or SIGINT.
#include <functional>
#include <string>

#include "sched/schedmate/tracker/metric_tracker.hpp"

namespace mlsys::schedmate {

struct FollowOptions {
  double poll_interval_s = 0.2;  // clamped to [0.001, 5]
  double idle_timeout_s = 30;
  double max_s = 3600;
  bool wait_for_file = true;     // the file may not exist yet (job not started)
  double wait_s = 0;             // with wait_for_file: give up after this long (0: as long as max_s)
  size_t max_line_bytes = size_t{64} << 10;  // longer lines are cut, so memory stays bounded
};

struct FollowResult {
  size_t lines = 0;
  std::string stop_reason;  // finished | stop_line | idle | max_time | interrupted | stalled
};

// Only a regular file is followed (never a device or FIFO). Lines are made valid UTF-8.
// `on_line` returns false to stop (e.g. a failure line was seen). `stop_on_stall` ends following as
// soon as the tracker flags a stall. The tracker's clock is the wall clock (seconds since epoch)
// for lines without timestamps.
FollowResult follow_file(const std::string& path, MetricTracker& tracker, const FollowOptions& opt,
                         const std::function<bool(const std::string&)>& on_line, bool stop_on_stall = false);

double wall_seconds();

}  // namespace mlsys::schedmate
