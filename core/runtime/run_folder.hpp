#pragma once
// A run owns its output folder. Claiming one takes an exclusive lock (flock on `.mlsys-lock`
// inside it) that lasts as long as the process, so a second run into the same folder fails at
// once, and writes a manifest (`.mlsys-run.json`: command, status, pid, host, start, and the files
// that were there before) that later runs read:
//   no manifest, empty or new      used
//   no manifest, holds files       refused unless overwrite (then written into; those files kept)
//   complete or interrupted run    refused unless overwrite (then that run's files are removed)
//   failed or incomplete run (an output it could not write), or one that died
//                                  reused: its files are removed (a re-run needs no --overwrite)
// "That run's files" are the ones its manifest lists as written when it ended (files added to the
// folder later stay), or, for a run that died, everything but the files that were there before.
// Files listed in `protect` (inputs inside the folder, e.g. a checkpoint to resume from) are never
// removed.
#include <filesystem>
#include <string>
#include <vector>

#include "core/util/json.hpp"

namespace mlsys {

class RunFolder {
 public:
  // Claims `dir` (created if missing). Throws UsageError with what to do when it cannot.
  static RunFolder claim(const std::filesystem::path& dir, const std::string& command, bool overwrite,
                         const std::vector<std::filesystem::path>& protect = {});
  // A new folder `base/<YYYYmmdd-HHMMSS>-<6 hex digits>`, created exclusively, so two runs started
  // in the same second never share one.
  static RunFolder claim_new(const std::filesystem::path& base, const std::string& command);

  RunFolder(RunFolder&& o) noexcept;
  RunFolder& operator=(RunFolder&&) = delete;
  ~RunFolder();  // releases the lock

  const std::filesystem::path& dir() const { return dir_; }
  // Records the outcome ("complete", "interrupted", "incomplete" or "failed", with the error) and
  // the files the run wrote.
  void mark(const std::string& status, const std::string& error = "");
  // What happened to the folder when it was claimed ("" for a new folder), for the run log.
  const std::string& note() const { return note_; }

  static constexpr const char* kLockFile = ".mlsys-lock";
  static constexpr const char* kManifest = ".mlsys-run.json";

 private:
  RunFolder(std::filesystem::path dir, int lock_fd) : dir_(std::move(dir)), lock_fd_(lock_fd) {}
  void write_manifest() const;
  std::filesystem::path dir_;
  int lock_fd_ = -1;
  Json manifest_ = Json::object();
  std::string note_;
};

// The status a folder's manifest records ("" when it has none or is unreadable).
std::string run_folder_status(const std::filesystem::path& dir);

}  // namespace mlsys
