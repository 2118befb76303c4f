#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace mlsys {

std::vector<std::string> split(std::string_view s, char sep);
std::string_view trim(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool starts_with(std::string_view s, std::string_view prefix);
std::string to_lower(std::string_view s);
// Levenshtein distance, used to suggest the nearest valid name.
size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `name`, or "" when none is reasonably close.
std::string nearest(std::string_view name, const std::vector<std::string>& candidates);
// Human-readable byte count ("12.3 MiB").
std::string format_bytes(double bytes);

}  // namespace mlsys
