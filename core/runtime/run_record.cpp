#include "core/runtime/run_record.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "core/runtime/build_info.hpp"
#include "core/io/hash.hpp"

namespace mlsys {

namespace fs = std::filesystem;

namespace {
std::vector<std::string>& argv_store() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

void set_command_line(int argc, char** argv) { argv_store().assign(argv, argv + argc); }
const std::vector<std::string>& command_line() { return argv_store(); }

const std::vector<std::string>& recorded_environment() {
  static const std::vector<std::string> names = {
      "MLSYS_DATA_DIR", "MLSYS_CACHE_DIR", "OMP_NUM_THREADS",  "OMP_WAIT_POLICY",     "OPENBLAS_NUM_THREADS",
      "CUDA_VISIBLE_DEVICES", "SLURM_CPUS_PER_TASK", "SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID"};
  return names;
}

std::string utc_timestamp() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

static std::string host_name() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

RunRecord::RunRecord() : start_time_(utc_timestamp()) {}

void RunRecord::record_input(const std::string& key, const fs::path& path) {
  fs::path abs = fs::absolute(path).lexically_normal();
  FileDigest d = digest_path(abs);
  Json e = Json::object();
  e["path"] = abs.string();
  e["size"] = d.size;
  if (d.files != 1 || fs::is_directory(abs)) e["files"] = d.files;
  e[kContentHashName] = d.hash;
  std::lock_guard<std::mutex> lk(mu_);
  inputs_[key] = std::move(e);
}

void RunRecord::record_builtin(const std::string& key, const std::string& what) {
  Json e = Json::object();
  e["path"] = "builtin";
  e["what"] = what;
  std::lock_guard<std::mutex> lk(mu_);
  inputs_[key] = std::move(e);
}

Json RunRecord::inputs() const {
  std::lock_guard<std::mutex> lk(mu_);
  return inputs_;
}

Json RunRecord::to_json(const std::string& command, const std::string& status, uint64_t seed,
                        const ThreadChoice& threads, const fs::path& out_dir) const {
  Json r = Json::object();
  r["command"] = command;
  r["status"] = status;
  r["partial"] = status != "complete";
  r["mlsys_version"] = MLSYS_VERSION;
  r["git_sha"] = git_sha();
  r["compiler"] = compiler_name();
  Json argv = Json::array();
  for (const auto& a : command_line()) argv.push_back(a);
  r["command_line"] = argv;
  std::error_code ec;
  r["working_dir"] = fs::current_path(ec).string();
  r["out_dir"] = fs::absolute(out_dir, ec).lexically_normal().string();
  r["host"] = host_name();
  r["start_time"] = start_time_;
  r["end_time"] = utc_timestamp();
  r["threads"] = threads.threads;
  r["threads_from"] = threads.from;
  if (!threads.capped.empty()) r["threads_capped"] = threads.capped;
  r["seed"] = seed;
  Json env = Json::object();
  for (const auto& name : recorded_environment()) {
    const char* v = std::getenv(name.c_str());
    env[name] = v ? Json(v) : Json();
  }
  r["environment"] = env;
  r["inputs"] = inputs();
  return r;
}

}  // namespace mlsys
