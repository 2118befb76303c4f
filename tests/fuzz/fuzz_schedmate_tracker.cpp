// Fuzz target: SchedMate's Metric Tracker over arbitrary log text (every progress parser, line
// clocks, the template miner's learned formats, stall detection). The text is made valid UTF-8 as
// read_log does; nothing may throw, and a fraction is within [0, 1] or unknown.
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sched/schedmate/io/bounded_input.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(schedmate_tracker) {
  using namespace mlsys::schedmate;
  const std::string text = valid_utf8(std::string_view(reinterpret_cast<const char*>(data), size));
  if (valid_utf8(text) != text) std::abort();  // valid_utf8 leaves valid text alone
  MetricTracker tracker;
  size_t start = 0;
  double now = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    tracker.feed(std::string_view(text).substr(start, end - start), size % 2 ? now : NAN);
    tracker.tick(now += 1);
    start = end + 1;
  }
  const TrackerSnapshot s = tracker.snapshot();
  if (!std::isnan(s.fraction) && (s.fraction < -1e-9 || s.fraction > 1 + 1e-9)) std::abort();
  return 0;
}
