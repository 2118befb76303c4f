#include "dataopt/data/bytes.hpp"

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys::dataopt {

std::string read_bytes(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError("file not found: " + path.string() + " (check the path in the config)");
  try {
    return read_file(path);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(std::string(e.what()) + " (truncated or corrupt file?)");
  }
}

}  // namespace mlsys::dataopt
