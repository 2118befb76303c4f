#pragma once
// Field splitting and number parsing shared by the trace readers. Everything works on views into
// the current line, so a row costs no allocation beyond the JobSpec it becomes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsys::sim {

// Splits a CSV record (RFC 4180 quoting: "a,b" and "" escapes). Quoted fields that contain
// escaped quotes are unescaped into `scratch`, which must outlive the views. Returns false when a
// quote is not closed.
bool split_csv(std::string_view line, std::vector<std::string_view>& out, std::string& scratch);
// Splits on a single separator character, no quoting (tab-separated traces).
void split_plain(std::string_view line, char sep, std::vector<std::string_view>& out);

// True when the field holds only spaces/tabs (or nothing).
bool blank(std::string_view s);

// Strict parsers: the whole (space-trimmed) text must be the number. nullopt on failure.
std::optional<double> parse_double(std::string_view s);
// Accepts integers and integral decimals such as "4.0".
std::optional<int64_t> parse_int(std::string_view s);

// "YYYY-MM-DD HH:MM:SS" (or 'T' separator, optional fraction) as UTC seconds since 1970.
std::optional<int64_t> parse_datetime(std::string_view s);
// Inverse of parse_datetime for the day part: seconds at 00:00:00 UTC of the day containing t.
int64_t day_start(int64_t t);

}  // namespace mlsys::sim
