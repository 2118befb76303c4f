#pragma once
// Portable content hashes (XXH3, 128 bits, from Debian's libxxhash): the same bytes give the same
// hex string on every machine, compiler and standard library, unlike std::hash. Run records name
// their inputs by it, and on-disk caches key on it.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace mlsys {

// Streaming hasher: feed bytes (and file contents) in order, then read the digest.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  ContentHasher& add(std::string_view bytes);
  // The file's raw bytes (a .gz file is hashed as stored). Throws mlsys::Error naming the path.
  ContentHasher& add_file(const std::filesystem::path& path);
  // 32 lowercase hex digits.
  std::string hex() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string content_hash(std::string_view bytes);
// The first 64 bits of content_hash(bytes), for caches that key on an integer.
uint64_t content_hash64(std::string_view bytes);

// Size and hash of a file, or of a folder (every regular file below it, in name order, each
// hashed with its relative path so renames change the digest).
struct FileDigest {
  uint64_t size = 0;   // bytes (a folder: the sum over its files)
  uint64_t files = 0;  // 1 for a file
  std::string hash;    // content_hash-style hex
};
FileDigest digest_path(const std::filesystem::path& path);

// Name of the algorithm, as written beside each hash ("xxh3_128").
inline constexpr const char* kContentHashName = "xxh3_128";

}  // namespace mlsys
