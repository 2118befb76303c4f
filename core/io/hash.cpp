#include "core/io/hash.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"

namespace mlsys {

namespace fs = std::filesystem;

struct ContentHasher::State {
  XXH3_state_t xxh;
};

ContentHasher::ContentHasher() : state_(std::make_unique<State>()) { XXH3_128bits_reset(&state_->xxh); }
ContentHasher::~ContentHasher() = default;

ContentHasher& ContentHasher::add(std::string_view bytes) {
  XXH3_128bits_update(&state_->xxh, bytes.data(), bytes.size());
  return *this;
}

ContentHasher& ContentHasher::add_file(const fs::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw Error("cannot open " + path.string() + " to hash it: " + std::strerror(errno));
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  // A multi-GB input is hashed for the run record: progress and stops per MiB like any reader.
  LongLoop loop("hash " + path.filename().string(), ec ? 0 : size >> 20, "MiB");
  std::vector<char> buf(1 << 20);
  size_t n;
  uint64_t mib = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) {
    XXH3_128bits_update(&state_->xxh, buf.data(), n);
    loop.beat(++mib);
  }
  if (std::ferror(f.get()) != 0) throw Error("read error while hashing " + path.string());
  loop.finish(mib);
  return *this;
}

std::string ContentHasher::hex() const {
  XXH128_hash_t h = XXH3_128bits_digest(&state_->xxh);
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::string content_hash(std::string_view bytes) { return ContentHasher().add(bytes).hex(); }
uint64_t content_hash64(std::string_view bytes) { return std::stoull(content_hash(bytes).substr(0, 16), nullptr, 16); }

FileDigest digest_path(const fs::path& path) {
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw Error("input not found: " + path.string());
  FileDigest d;
  ContentHasher h;
  if (fs::is_directory(st)) {
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file()) files.push_back(it->path());
    if (ec) throw Error("cannot list " + path.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string rel = f.lexically_relative(path).generic_string();
      h.add(rel).add(std::string_view("\0", 1)).add_file(f);
      d.size += fs::file_size(f);
      ++d.files;
    }
  } else if (fs::is_regular_file(st)) {
    h.add_file(path);
    d.size = fs::file_size(path);
    d.files = 1;
  } else {
    throw Error(path.string() + " is not a regular file or folder (a device or pipe cannot be recorded as an input)");
  }
  d.hash = h.hex();
  return d;
}

}  // namespace mlsys
