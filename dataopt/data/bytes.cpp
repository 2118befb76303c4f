#include "dataopt/data/bytes.hpp"

#include <zlib.h>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

std::string read_bytes(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError("file not found: " + path.string() + " (check the path in the config)");
  // gzread passes plain files through unchanged, so one code path reads both.
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw InputError("cannot open " + path.string());
  std::string out;
  char buf[1 << 16];
  int got = 0;
  while ((got = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(got));
  int err = Z_OK;
  const char* msg = gzerror(f, &err);
  const bool bad = got < 0 || (err != Z_OK && err != Z_STREAM_END);
  const std::string what = bad ? std::string(msg) : std::string();
  gzclose(f);
  if (bad) throw InputError("cannot decompress " + path.string() + ": " + what + " (truncated or corrupt gzip?)");
  return out;
}

}  // namespace mlsys::dataopt
