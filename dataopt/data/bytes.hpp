#pragma once
#include <filesystem>
#include <string>

namespace mlsys::dataopt {

// Whole file contents through core's read_file (gunzipped when the name ends in .gz). A missing,
// unreadable or corrupt file is bad input data here: InputError naming the path.
std::string read_bytes(const std::filesystem::path& path);

}  // namespace mlsys::dataopt
