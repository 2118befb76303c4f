#pragma once
// Timestamps at the start of a log line: ISO-8601 as written by log collectors
// (`2024-05-01T10:00:00.123Z`, kubectl --timestamps), Python logging (`2024-05-01 10:00:00,123`),
// bracketed forms (`[2024-05-01 10:00:00]`). Hand-written because it runs on every line.
#include <string_view>

namespace mlsys::schedmate {

struct LineTime {
  bool found = false;
  double seconds = 0;  // seconds since 1970-01-01 (UTC, timezone suffixes ignored)
  size_t end = 0;      // offset just past the timestamp (and a closing bracket, blanks)
};

LineTime parse_line_time(std::string_view line);

// Days since 1970-01-01 for a proleptic Gregorian date.
long days_from_civil(long y, unsigned m, unsigned d);

// "01:23" or "1:02:03" (tqdm elapsed) -> seconds; returns false when not a clock.
bool parse_clock(std::string_view s, double& seconds);

}  // namespace mlsys::schedmate
