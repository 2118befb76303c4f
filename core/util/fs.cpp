#include "core/util/fs.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/util/error.hpp"

namespace mlsys {

namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, std::string_view content) {
  if (path.has_parent_path()) ensure_dir(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write " + tmp.string() + ": check that the folder is writable");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw Error("write failed for " + tmp.string() + " (disk full?)");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error("cannot rename into " + path.string() + ": " + ec.message());
  }
}

std::string read_file(const fs::path& path) {
  if (!fs::exists(path)) throw Error("file not found: " + path.string());
  if (path.extension() == ".gz") {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw Error("cannot open " + path.string());
    std::string out;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    int err = 0;
    const char* msg = gzerror(f, &err);
    bool bad = n < 0 || (err != Z_OK && err != Z_STREAM_END);
    std::string what = bad ? msg : "";
    gzclose(f);
    if (bad) throw Error("cannot decompress " + path.string() + ": " + what);
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void ensure_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create folder " + dir.string() + ": " + ec.message());
}

fs::path data_dir() {
  const char* env = std::getenv("MLSYS_DATA_DIR");
  if (!env || !*env) return {};
  fs::path p(env);
  // A variable that is set names the data the user meant: never fall back as if it were unset.
  if (!fs::is_directory(p))
    throw ConfigError("MLSYS_DATA_DIR=" + p.string() + " is not a folder; point it at the data folder or unset it");
  return p;
}

}  // namespace mlsys
