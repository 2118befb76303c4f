#include "core/runtime/run_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <set>

#include "core/runtime/run_record.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

namespace fs = std::filesystem;

namespace {

bool bookkeeping(const fs::path& rel) {
  auto name = rel.string();
  return name == RunFolder::kLockFile || name == RunFolder::kManifest;
}

// Every non-folder entry below dir (relative paths, symlinks not followed), bookkeeping excluded.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) continue;
    fs::path rel = it->path().lexically_relative(dir);
    if (!bookkeeping(rel)) out.push_back(rel.generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Json read_manifest(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / RunFolder::kManifest, ec)) return Json();
  try {
    return Json::parse(read_file(dir / RunFolder::kManifest, 1 << 24));
  } catch (const Error&) {
    return Json::object();  // unreadable: treated as a run that died while writing it
  }
}

std::string field(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_string() ? v->as_string() : std::string();
}

int lock_folder(const fs::path& dir) {
  fs::path lock = dir / RunFolder::kLockFile;
  int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0)
    throw UsageError("cannot open the lock file " + lock.string() + " (" + std::strerror(errno) +
                     "); is the output folder writable?");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err != EWOULDBLOCK) throw UsageError("cannot lock the output folder " + dir.string() + ": " + std::strerror(err));
    Json m = read_manifest(dir);
    std::string who = m.is_object() && m.contains("pid")
                          ? " (`mlsys " + field(m, "command") + "`, pid " + format_number(m.find("pid")->as_number()) +
                                " on " + field(m, "host") + ", started " + field(m, "start_time") + ")"
                          : "";
    throw UsageError("output folder " + dir.string() + " is in use by another mlsys run" + who +
                     "; wait for it to end or choose another --out");
  }
  return fd;
}

// Removes the files of a previous run: those its manifest lists as written when it has the list
// (a run that ended), otherwise everything but the files that were there before it (a run that
// died); `protect` is always spared. Then the folders that became empty.
void clear_previous(const fs::path& dir, const Json& old, const std::set<std::string>& keep,
                    const std::set<std::string>& protect) {
  std::vector<std::string> victims;
  if (const Json* files = old.find("files"); files && files->is_array()) {
    for (const auto& e : files->as_array())
      if (e.is_string()) victims.push_back(e.as_string());
  } else {
    for (const auto& rel : entries(dir))
      if (!keep.count(rel)) victims.push_back(rel);
  }
  for (const auto& rel : victims) {
    if (protect.count(rel) || rel.empty() || fs::path(rel).is_absolute() || rel.find("..") != std::string::npos)
      continue;
    std::error_code ec;
    fs::remove(dir / rel, ec);
    if (ec) throw Error("cannot remove " + (dir / rel).string() + " of the previous run: " + ec.message());
  }
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec)) dirs.push_back(it->path());
  std::sort(dirs.rbegin(), dirs.rend());  // children before parents
  for (const auto& d : dirs)
    if (fs::is_empty(d, ec)) fs::remove(d, ec);
}

std::string local_timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string host() {
  char buf[256] = {0};
  return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string("unknown");
}

}  // namespace

std::string run_folder_status(const fs::path& dir) {
  Json m = read_manifest(dir);
  return m.is_object() ? field(m, "status") : std::string();
}

RunFolder RunFolder::claim(const fs::path& dir, const std::string& command, bool overwrite,
                           const std::vector<fs::path>& protect) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_directory(dir, ec))
    throw UsageError("output folder " + dir.string() + " exists and is not a folder; choose another --out");
  ensure_dir(dir);
  RunFolder f(dir, lock_folder(dir));
  std::set<std::string> protected_rel;
  fs::path abs_dir = fs::absolute(dir).lexically_normal();
  for (const auto& p : protect) {
    fs::path rel = fs::absolute(p).lexically_normal().lexically_relative(abs_dir);
    if (!rel.empty() && *rel.begin() != "..") protected_rel.insert(rel.generic_string());
  }

  Json old = read_manifest(dir);
  std::vector<std::string> present = entries(dir);
  std::set<std::string> keep;
  const std::string again = "; choose another --out or pass --overwrite to replace it";
  if (!old.is_null()) {
    std::string status = field(old, "status");
    std::string what = "`mlsys " + field(old, "command") + "` (started " + field(old, "start_time") + ")";
    if (const Json* k = old.find("kept"); k && k->is_array())
      for (const auto& e : k->as_array())
        if (e.is_string()) keep.insert(e.as_string());
    if (status == "complete" || status == "interrupted") {
      if (!overwrite)
        throw UsageError("output folder " + dir.string() + " already holds a" + (status == "complete" ? " " : "n ") +
                         status + " run of " + what + again);
      f.note_ = "replaced the " + status + " run of " + what;
    } else {
      f.note_ = "reused the folder of a" + std::string(status == "failed" ? " failed" : status == "incomplete" ? "n incomplete" : " crashed") + " run of " + what;
    }
    clear_previous(dir, old, keep, protected_rel);
  } else if (fs::exists(dir / "config.yaml") || fs::exists(dir / "summary.json")) {
    // A run folder from before manifests: which files it wrote is unknown, so none is removed.
    if (!overwrite) throw UsageError("output folder " + dir.string() + " already holds a run" + again);
    keep.insert(present.begin(), present.end());
    f.note_ = "writing over an earlier run (same-named files are replaced)";
  } else if (!present.empty()) {
    if (!overwrite) {
      std::vector<std::string> some(present.begin(), present.begin() + std::min<size_t>(present.size(), 3));
      throw UsageError("output folder " + dir.string() + " holds " + std::to_string(present.size()) +
                       " file(s) that no mlsys run wrote (" + join(some, ", ") + (present.size() > 3 ? ", ..." : "") +
                       "); choose an empty or new folder, or pass --overwrite to write into it (same-named files are "
                       "replaced, the others kept)");
    }
    keep.insert(present.begin(), present.end());
    f.note_ = "writing into a folder with " + std::to_string(present.size()) + " other file(s), which are kept";
  }
  f.manifest_["command"] = command;
  f.manifest_["status"] = "running";
  f.manifest_["pid"] = static_cast<int64_t>(::getpid());
  f.manifest_["host"] = host();
  f.manifest_["start_time"] = utc_timestamp();
  Json kept = Json::array();
  for (const auto& k : keep)
    if (fs::exists(fs::symlink_status(dir / k, ec))) kept.push_back(k);
  f.manifest_["kept"] = kept;
  f.write_manifest();
  return f;
}

RunFolder RunFolder::claim_new(const fs::path& base, const std::string& command) {
  ensure_dir(base);
  for (int attempt = 0; attempt < 64; ++attempt) {
    fs::path dir = base / (local_timestamp() + "-" + random_hex_suffix().substr(0, 6));
    if (::mkdir(dir.c_str(), 0777) == 0) return claim(dir, command, false);
    if (errno != EEXIST) throw Error("cannot create folder " + dir.string() + ": " + std::strerror(errno));
  }
  throw Error("cannot create a unique run folder under " + base.string());
}

RunFolder::RunFolder(RunFolder&& o) noexcept
    : dir_(std::move(o.dir_)), lock_fd_(o.lock_fd_), manifest_(std::move(o.manifest_)), note_(std::move(o.note_)) {
  o.lock_fd_ = -1;
}

RunFolder::~RunFolder() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void RunFolder::mark(const std::string& status, const std::string& error) {
  // The files this run wrote: what the folder holds now, less what was there before it.
  std::set<std::string> kept;
  if (const Json* k = manifest_.find("kept"))
    for (const auto& e : k->as_array()) kept.insert(e.as_string());
  Json files = Json::array();
  for (const auto& rel : entries(dir_))
    if (!kept.count(rel)) files.push_back(rel);
  manifest_["files"] = files;
  manifest_["status"] = status;
  manifest_["end_time"] = utc_timestamp();
  if (!error.empty()) manifest_["error"] = error;
  write_manifest();
}

void RunFolder::write_manifest() const { write_file_atomic(dir_ / kManifest, manifest_.dump(1) + "\n"); }

}  // namespace mlsys
