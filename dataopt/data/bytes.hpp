#pragma once
#include <filesystem>
#include <string>

namespace mlsys::dataopt {

// Whole file contents, gunzipped when the file is gzip data whatever its extension.
// Throws InputError naming the path when it is missing, unreadable or a corrupt gzip stream.
std::string read_bytes(const std::filesystem::path& path);

}  // namespace mlsys::dataopt
