#include "core/runtime/run_context.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/log/log.hpp"
#include "core/log/progress.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

namespace {
// ", peak device memory cuda:0 1.2 GiB (pools; driver 1.5 GiB)" for each device in memory_report()'s
// "devices", or "" for a host-only run.
std::string device_memory_text(const Json& resources) {
  const Json* devices = resources.find("devices");
  if (!devices || !devices->is_object()) return "";
  std::string text;
  for (const auto& [name, d] : devices->as_object()) {
    const Json* pools = d.find("pool_peak_bytes");
    const Json* driver = d.find("driver_used_peak_bytes");
    text += ", peak device memory " + name + " " + format_bytes(pools ? pools->as_number() : 0.0) + " (pools";
    if (driver && driver->as_uint() > 0) text += "; driver " + format_bytes(driver->as_number());
    text += ")";
  }
  return text;
}
}  // namespace

namespace fs = std::filesystem;

static std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

RunContext::RunContext(std::string command, config::ResolvedConfig cfg)
    : command_(std::move(command)), cfg_(std::move(cfg)), primary_(launcher_rank() <= 0) {
  const RunOptions& ro = run();
  log::set_level(log::parse_level(ro.log_level));
  set_progress_setting(ro.progress);
  if (launcher_size() > 1) log::set_rank(launcher_rank());
  start_s_ = log::elapsed_seconds();
  install_interrupt_handler();
  threads_ = choose_threads(ro.threads);  // before the folder is claimed: a bad OMP_NUM_THREADS leaves none
  if (ro.out_dir.empty()) {
    // Ranks cannot agree on a generated folder name before MPI starts, and they must share one.
    if (launcher_size() > 1)
      throw UsageError(fmt::format("started by an MPI launcher with {} processes: give --out DIR (run.out_dir) so "
                                   "every rank uses the same run folder",
                                   launcher_size()));
    folder_.emplace(RunFolder::claim_new(fs::path("results") / command_, command_));
  } else if (primary_) {
    std::vector<fs::path> inputs;
    for (const auto& p : cfg_.path_values()) inputs.emplace_back(p);
    folder_.emplace(RunFolder::claim(ro.out_dir, command_, ro.overwrite, inputs));
  } else {
    ensure_dir(ro.out_dir);  // rank 0 owns and locks the folder; the other ranks only add files
  }
  out_dir_ = folder_ ? folder_->dir() : fs::path(ro.out_dir);
  if (primary_) write_file_atomic(path("config.yaml"), config_header());  // a run that cannot write it does not start
  if (primary_) log::set_file((out_dir_ / "run.log").string());
  threads_.threads = set_thread_count(threads_.threads);
  if (!threads_.capped.empty())
    log::warn("{} asks for more threads than the {} CPU(s) this process may run on (its affinity mask): using {}",
              threads_.capped, threads_.threads, threads_.threads);
  log::info("mlsys {}: output in {} ({} thread{} from {}, seed {})", command_, out_dir_.string(), threads_.threads,
            threads_.threads == 1 ? "" : "s", threads_.from, ro.seed);
  if (folder_ && !folder_->note().empty()) log::info("output folder: {}", folder_->note());
}

// config.yaml: every resolved value, except that run.out_dir and run.overwrite are reset to their
// defaults, so the re-run line printed at the top goes to a fresh folder and can never replace
// this run (the folder and flag this run used are in the comment and in summary.json). The line
// names this executable's path, so it works whatever PATH holds.
std::string RunContext::config_header() const {
  YAML::Node root = cfg_.to_yaml();
  const RunOptions defaults;
  for (const char* key : {"out_dir", "overwrite"}) root["run"][key] = run_section().find(key)->to_yaml(&defaults);
  fs::path abs = fs::absolute(out_dir_).lexically_normal();
  return "# mlsys " + command_ + ": the resolved config of the run in " + abs.string() +
         " (run.out_dir and run.overwrite reset: a re-run goes to a new folder)\n" + "# re-run with: " +
         shell_quote(self_executable()) + " " + command_ + " " + shell_quote((abs / "config.yaml").string()) + "\n" +
         config::yaml_text(root);
}

RunContext::~RunContext() {
  if (!finished_) fail("the run ended without finishing (an unexpected error escaped the command)");
  log::set_file("");
}

bool RunContext::progress_enabled() const { return mlsys::progress_enabled(); }

void RunContext::write_text(const std::string& relative, const std::string& content) {
  if (!primary_) return;
  try {
    write_file_atomic(path(relative), content);
  } catch (const Error& e) {
    missing_output(relative, e.what());
  }
}
void RunContext::write_json(const std::string& relative, const Json& j) { write_text(relative, j.dump(2) + "\n"); }
void RunContext::write_table(const std::string& relative, const Table& t) { write_text(relative, t.to_csv()); }

void RunContext::record_input(const std::string& key, const fs::path& path) { record_.record_input(key, path); }
void RunContext::record_builtin_input(const std::string& key, const std::string& what) {
  record_.record_builtin(key, what);
}

void RunContext::say(const std::string& line) { lines_.push_back(line); }

void RunContext::missing_output(const std::string& output, const std::string& why) {
  Json m = Json::object();
  m["output"] = output;
  m["error"] = why;
  std::lock_guard<std::mutex> lk(missing_mu_);
  missing_.push_back(m);
  log::error("{} was not written: {}", output, why);
}

bool RunContext::incomplete() const {
  std::lock_guard<std::mutex> lk(missing_mu_);
  return missing_.size() > 0;
}

std::string RunContext::missing_text(bool errors) const {
  std::lock_guard<std::mutex> lk(missing_mu_);
  std::string text;
  for (const Json& m : missing_.as_array()) {
    text += (text.empty() ? "" : errors ? "; " : ", ") + m.find("output")->as_string();
    if (errors) text += " (" + m.find("error")->as_string() + ")";
  }
  return text;
}

void RunContext::claim_output_file(const std::string& key, const fs::path& file) const {
  refuse_to_replace(file, run().overwrite, key);
}

void RunContext::write_summary(const std::string& status, const std::string& note) {
  Json res = memory_report();
  res["wall_seconds"] = log::elapsed_seconds() - start_s_;
  res["threads"] = threads_.threads;
  summary_["resources"] = res;
  summary_["run"] = record_.to_json(command_, status, seed(), threads_, out_dir_);
  if (!note.empty()) summary_["run"]["stopped"] = note;
  if (incomplete()) {
    std::lock_guard<std::mutex> lk(missing_mu_);
    summary_["run"]["missing"] = missing_;
  }
  if (primary_) write_file_atomic(path("summary.json"), summary_.dump(2) + "\n");
  if (folder_) folder_->mark(status, status == "incomplete" ? "not written: " + missing_text() : "");
}

void RunContext::finish() {
  if (finished_) return;
  finished_ = true;
  if (!primary_) return;
  const bool partial = interrupted();
  const std::string status = partial ? "interrupted" : incomplete() ? "incomplete" : "complete";
  write_summary(status, partial ? "by " + interrupt_signal_name() + ", at a safe point" : "");
  if (partial) log::warn("interrupted: the results in {} are partial (summary.json: run.partial = true)", out_dir_.string());
  const std::string headline = partial ? " (interrupted: partial results)"
                               : incomplete() ? " (incomplete: " + missing_text(false) + " not written)"
                                              : "";
  std::printf("== mlsys %s%s ==\n", command_.c_str(), headline.c_str());
  for (const auto& l : lines_) std::printf("  %s\n", l.c_str());
  std::printf("  peak host memory %s%s, wall %.2f s\n", format_bytes(static_cast<double>(peak_rss_bytes())).c_str(),
              device_memory_text(summary_["resources"]).c_str(), summary_["resources"]["wall_seconds"].as_number());
  std::printf("  results: %s\n", out_dir_.string().c_str());
  std::fflush(stdout);
}

void RunContext::finish_interrupted(const std::string& message) {
  if (finished_) return;
  finished_ = true;
  if (!primary_) return;
  write_summary("interrupted", "by " + interrupt_signal_name() + ": " + message);
  log::warn("run stopped by {} ({}); partial results in {}", interrupt_signal_name(), message, out_dir_.string());
}

void RunContext::fail(const std::string& message) {
  if (finished_) return;
  finished_ = true;
  if (!primary_) return;
  log::write_file_only(log::Level::Error, "mlsys: error: " + message);
  log::write_file_only(log::Level::Error, "run failed; this folder holds no results and a re-run may reuse it");
  try {
    if (folder_) folder_->mark("failed", message);
  } catch (const std::exception& e) {
    log::write_file_only(log::Level::Error, std::string("could not mark the folder failed: ") + e.what());
  }
}

bool RunContext::stop_requested() { return interrupted(); }

}  // namespace mlsys
