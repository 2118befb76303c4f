#pragma once
// File helpers. Every output file mlsys writes goes through write_file_atomic so an interrupted
// run never leaves a half-written result (temp file in the same folder + rename).
#include <filesystem>
#include <string>
#include <string_view>

namespace mlsys {

void write_file_atomic(const std::filesystem::path& path, std::string_view content);
// Reads a whole file (transparently gunzips *.gz). Throws mlsys::Error naming the path.
std::string read_file(const std::filesystem::path& path);
void ensure_dir(const std::filesystem::path& dir);
// Directory holding shared real data ($MLSYS_DATA_DIR), or "" when unset; a set variable that
// names no folder is a ConfigError, never treated as unset.
std::filesystem::path data_dir();

}  // namespace mlsys
