#pragma once
// What summary.json records about a run besides its results, so a result can be traced to the
// exact build, command line, machine, environment and input files that made it.
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "core/process/thread_policy.hpp"
#include "core/util/json.hpp"

namespace mlsys {

// The program's argv, as typed (main sets it once; tests leave it empty).
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

// Environment variables that can change a result or where it comes from; the record lists each
// one's value (or null) so no result depends on a variable the record does not show.
const std::vector<std::string>& recorded_environment();

// UTC wall-clock time as ISO 8601 ("2025-01-31T12:00:00.123Z").
std::string utc_timestamp();

class RunRecord {
 public:
  RunRecord();
  // An input file or folder the run read: path, size and content hash. Thread-safe; recording the
  // same key again replaces it (the last file read under that name is the one used).
  void record_input(const std::string& key, const std::filesystem::path& path);
  // An input that came from no file (a built-in table, a generated trace).
  void record_builtin(const std::string& key, const std::string& what);
  Json inputs() const;
  // The "run" object of summary.json (status: complete | interrupted), with the thread count and
  // the rule that chose it ("threads_from"; "threads_capped" names a request the affinity mask cut).
  Json to_json(const std::string& command, const std::string& status, uint64_t seed, const ThreadChoice& threads,
               const std::filesystem::path& out_dir) const;
  const std::string& start_time() const { return start_time_; }

 private:
  std::string start_time_;
  mutable std::mutex mu_;
  Json inputs_ = Json::object();
};

}  // namespace mlsys
