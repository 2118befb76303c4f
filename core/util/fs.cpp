#include "core/util/fs.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

namespace fs = std::filesystem;

// ---- registered temporaries (read by the interrupt handler, so fixed storage, no locks) ----
namespace {
constexpr int kSlots = 256;
constexpr int kFree = 0, kFilling = 1, kReady = 2;
struct Slot {
  std::atomic<int> state{kFree};
  char path[4096];
};
std::array<Slot, kSlots> g_slots;

int register_temporary(const fs::path& p) {
  const std::string& s = p.native();
  if (s.size() >= sizeof(g_slots[0].path)) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(g_slots[i].path, s.c_str(), s.size() + 1);
      g_slots[i].state.store(kReady);
      return i;
    }
  }
  return -1;  // more than kSlots open at once: still written and renamed, only not signal-cleaned
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree);
}
}  // namespace

void remove_registered_temporaries() noexcept {
  for (auto& s : g_slots)
    if (s.state.load() == kReady) ::unlink(s.path);
}

int registered_temporaries() {
  int n = 0;
  for (auto& s : g_slots) n += s.state.load() == kReady;
  return n;
}

std::string random_hex_suffix() {
  unsigned char b[8];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = ::getrandom(b + got, sizeof b - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot get random bytes for a unique file name: ") + std::strerror(errno));
    }
    got += static_cast<size_t>(n);
  }
  char hex[17];
  for (int i = 0; i < 8; ++i) std::snprintf(hex + 2 * i, 3, "%02x", b[i]);
  return hex;
}

TempFile::TempFile(const fs::path& target) : target_(target) {
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (target.has_parent_path()) ensure_dir(dir);
  for (int attempt = 0; attempt < 16; ++attempt) {
    tmp_ = dir / ("." + target.filename().string() + "." + random_hex_suffix() + ".tmp");
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    if (errno != EEXIST)
      throw Error("cannot create a temporary file in " + dir.string() + " (" + std::strerror(errno) +
                  "): check that the folder exists and is writable");
  }
  if (fd_ < 0) throw Error("cannot create a unique temporary file in " + dir.string());
  slot_ = register_temporary(tmp_);
}

TempFile::~TempFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
  unregister_temporary(slot_);
}

void TempFile::write(std::string_view bytes) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("write failed for " + target_.string() + " (" + std::strerror(errno) + (errno == ENOSPC ? ": disk full" : "") + ")");
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

void TempFile::commit() {
  if (committed_) return;
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw Error("write failed for " + target_.string() + " (" + std::strerror(errno) + ")");
  }
  fd_ = -1;
  // rename replaces whatever is at target (a symlink included) without following it.
  if (::rename(tmp_.c_str(), target_.c_str()) != 0)
    throw Error("cannot rename into " + target_.string() + ": " + std::strerror(errno));
  committed_ = true;
  unregister_temporary(slot_);
  slot_ = -1;
}

void write_file_atomic(const fs::path& path, std::string_view content) {
  TempFile tmp(path);
  tmp.write(content);
  tmp.commit();
}

void refuse_to_replace(const fs::path& path, bool overwrite, const std::string& key) {
  std::error_code ec;
  if (overwrite || !fs::exists(fs::symlink_status(path, ec))) return;
  throw ConfigError(key + " = " + path.string() +
                    ": the file exists; choose another path or pass --overwrite to replace it");
}

void require_input(const fs::path& path, const std::string& key, InputKind kind, const std::string& hint) {
  std::error_code ec;
  const auto st = fs::status(path, ec);
  std::string problem;
  if (!fs::exists(st)) problem = "no such file or folder";
  else if (kind == InputKind::File && fs::is_directory(st)) problem = "a folder, not a file";
  else if (kind == InputKind::Folder && !fs::is_directory(st)) problem = "a file, not a folder";
  else if (::access(path.c_str(), fs::is_directory(st) ? R_OK | X_OK : R_OK) != 0)
    problem = std::string("cannot be read: ") + std::strerror(errno);
  if (problem.empty()) return;
  throw MissingInput(key + " = '" + path.string() + "': " + problem + (hint.empty() ? "" : "; " + hint));
}

static std::string too_big(const fs::path& path, uint64_t max_bytes) {
  return path.string() + " is larger than the " + format_bytes(static_cast<double>(max_bytes)) +
         " this reader accepts; is it the right file?";
}

uint64_t check_input_file(const fs::path& path, const InputRules& rules) {
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError("file not found: " + path.string());
  if (fs::is_directory(st)) throw InputError(path.string() + " is a folder, not a file");
  if (!fs::is_regular_file(st))
    throw InputError(path.string() + ": not a regular file (devices, FIFOs and sockets are not read); name a file");
  const uint64_t size = fs::file_size(path, ec);
  if (ec) throw InputError("cannot read the size of " + path.string() + ": " + ec.message());
  if (size > rules.max_bytes) {
    if (rules.limit_key.empty()) throw InputError(too_big(path, rules.max_bytes));
    throw InputError(path.string() + ": " + std::to_string(size) + " bytes, more than " + rules.limit_key + " = " +
                     std::to_string(rules.max_bytes) + "; raise the limit to read it");
  }
  return size;
}

std::string read_file(const fs::path& path, uint64_t max_bytes) {
  const bool gz = path.extension() == ".gz";
  // A plain file's cap is its size on disk; a .gz's applies to what it inflates to, checked below
  // as it grows (as is a plain file's, should it grow while it is read).
  const uint64_t size = check_input_file(path, {gz ? kNoSizeLimit : max_bytes, ""});
  std::string out;
  try {
    if (gz) {
      gzFile f = gzopen(path.c_str(), "rb");
      if (!f) throw Error("cannot open " + path.string() + ": " + std::strerror(errno));
      char buf[1 << 16];
      int n;
      while ((n = gzread(f, buf, sizeof buf)) > 0) {
        if (out.size() + static_cast<size_t>(n) > max_bytes) {
          gzclose(f);
          throw Error(too_big(path, max_bytes) + " (decompressed)");
        }
        out.append(buf, static_cast<size_t>(n));
      }
      int err = 0;
      const char* msg = gzerror(f, &err);
      bool bad = n < 0 || (err != Z_OK && err != Z_STREAM_END);
      std::string what = bad ? msg : "";
      gzclose(f);
      if (bad) throw Error("cannot decompress " + path.string() + ": " + what + " (truncated or corrupt gzip file)");
      return out;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw Error("cannot open " + path.string() + ": " + std::strerror(errno));
    out.reserve(size);
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
      if (out.size() + n > max_bytes) {
        std::fclose(f);
        throw Error(too_big(path, max_bytes));
      }
      out.append(buf, n);
    }
    bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) throw Error("read error in " + path.string());
  } catch (const std::bad_alloc&) {
    throw Error("out of memory reading " + path.string() + " (" + format_bytes(static_cast<double>(out.size())) +
                " read so far): the file is too large for this machine's memory");
  }
  return out;
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
