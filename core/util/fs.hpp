#pragma once
// File helpers. Every output file mlsys writes goes through write_file_atomic (or a TempFile) so an
// interrupted run never leaves a half-written result (temp file in the same folder + rename).
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>

namespace mlsys {

void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// A new file beside `target` for writing it atomically. It is created with O_CREAT | O_EXCL |
// O_NOFOLLOW under a random name (".<name>.<16 hex digits>.tmp"), so a planted file or symlink is
// never followed or reused, and registered so that a second interrupt removes it before exiting.
// commit() renames it over `target`; the destructor removes it when it was not committed.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& target);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  // Appends bytes. Throws mlsys::Error naming the file (disk full, I/O error).
  void write(std::string_view bytes);
  void commit();
  const std::filesystem::path& path() const { return tmp_; }
  const std::filesystem::path& target() const { return target_; }

 private:
  std::filesystem::path target_, tmp_;
  int fd_ = -1;
  int slot_ = -1;
  bool committed_ = false;
};

// Removes every registered temporary file. Async-signal-safe: the interrupt handler calls it.
void remove_registered_temporaries() noexcept;
// Number of temporaries now registered (tests).
int registered_temporaries();

// An explicit output file a user named (e.g. tracegen.out) is replaced only with --overwrite:
// throws ConfigError naming `key` and the path when it exists and `overwrite` is false.
void refuse_to_replace(const std::filesystem::path& path, bool overwrite, const std::string& key);

// What an input the user named must be.
enum class InputKind { File, Folder, Any };
// Checks an input named by the config key `key` (with its flag, e.g. "gnn.graph.path (--graph)")
// before it is read: throws MissingInput ("<key> = '<path>': no such file or folder", "...: a
// folder, not a file", "...: cannot be read: Permission denied"), followed by `hint` when given.
// Every reader of a user-named input calls it, so a missing input is exit 2 everywhere.
void require_input(const std::filesystem::path& path, const std::string& key, InputKind kind = InputKind::Any,
                   const std::string& hint = "");

inline constexpr uint64_t kNoSizeLimit = std::numeric_limits<uint64_t>::max();

// What a user-named input file may be.
struct InputRules {
  uint64_t max_bytes = kNoSizeLimit;  // on disk (a .gz: its compressed size)
  std::string limit_key;              // the config key that sets max_bytes, named when a file exceeds it
};
// The one check every reader of a file the user names makes before opening it: the file exists,
// is a regular file (a device such as /dev/zero, a FIFO or a socket never ends or cannot be
// sized: refused), and holds at most `rules.max_bytes`. Returns its size. Throws InputError
// naming the path and what to do.
uint64_t check_input_file(const std::filesystem::path& path, const InputRules& rules = {});

// Reads a whole file (transparently gunzips *.gz). Throws mlsys::Error naming the path: missing,
// a folder or a device, larger than `max_bytes` (after decompression), or too big for memory.
std::string read_file(const std::filesystem::path& path, uint64_t max_bytes = kNoSizeLimit);
void ensure_dir(const std::filesystem::path& dir);
// Directory holding shared real data ($MLSYS_DATA_DIR), or "" when unset; a set variable that
// names no folder is a ConfigError, never treated as unset.
std::filesystem::path data_dir();
// 16 random hex digits from the kernel's generator (unique names for folders and temporaries).
std::string random_hex_suffix();

}  // namespace mlsys
