#pragma once
// Field parsing shared by the trace readers (splitting is core/io/csv.hpp). Everything works on
// views into the current line, so a row costs no allocation beyond the JobSpec it becomes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsys::workload {

// True when the field holds only spaces/tabs (or nothing).
bool blank(std::string_view s);

// Strict parsers: the whole (space-trimmed) text must be the number. nullopt on failure.
std::optional<double> parse_double(std::string_view s);
// Accepts integers and integral decimals such as "4.0".
std::optional<int64_t> parse_int(std::string_view s);

// "YYYY-MM-DD HH:MM:SS" (or 'T' separator, optional fraction) as UTC seconds since 1970.
std::optional<int64_t> parse_datetime(std::string_view s);
// Inverse of parse_datetime: UTC seconds since 1970 as "YYYY-MM-DD HH:MM:SS" (years 0-9999).
std::string format_datetime(int64_t t);
// Inverse of parse_datetime for the day part: seconds at 00:00:00 UTC of the day containing t.
int64_t day_start(int64_t t);

}  // namespace mlsys::workload
