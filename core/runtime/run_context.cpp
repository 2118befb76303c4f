#include "core/runtime/run_context.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/log/log.hpp"
#include "core/runtime/system.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

namespace fs = std::filesystem;

static std::string timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

static bool holds_run(const fs::path& dir) {
  return fs::exists(dir / "config.yaml") || fs::exists(dir / "summary.json");
}

RunContext::RunContext(std::string command, config::ResolvedConfig cfg)
    : command_(std::move(command)), cfg_(std::move(cfg)), primary_(launcher_rank() <= 0) {
  const RunOptions& ro = run();
  log::set_level(log::parse_level(ro.log_level));
  start_s_ = log::elapsed_seconds();
  if (ro.out_dir.empty()) {
    // Ranks cannot agree on a timestamped folder before MPI starts, and they must share one.
    if (launcher_size() > 1)
      throw UsageError(fmt::format("started by an MPI launcher with {} processes: give --out DIR (run.out_dir) so "
                                   "every rank uses the same run folder",
                                   launcher_size()));
    fs::path base = fs::path("results") / command_ / timestamp();
    out_dir_ = base;
    for (int i = 2; fs::exists(out_dir_); ++i) out_dir_ = base.string() + "-" + std::to_string(i);
  } else {
    out_dir_ = ro.out_dir;
    if (primary_ && holds_run(out_dir_) && !ro.overwrite)
      throw UsageError("output folder " + out_dir_.string() +
                       " already holds a run; choose another --out or pass --set run.overwrite=true");
  }
  ensure_dir(out_dir_);
  write_text("config.yaml", "# resolved config of `mlsys " + command_ + "`; re-run with: mlsys " + command_ + " " +
                                (out_dir_ / "config.yaml").string() + "\n" + cfg_.to_yaml_string());
  if (primary_) log::set_file((out_dir_ / "run.log").string());
  threads_ = set_thread_count(ro.threads);
  install_interrupt_handler();
  log::info("mlsys {}: output in {} ({} threads, seed {})", command_, out_dir_.string(), threads_, ro.seed);
}

RunContext::~RunContext() { log::set_file(""); }

bool RunContext::progress_enabled() const {
  const auto& p = run().progress;
  if (p == "off") return false;
  if (p == "on") return true;
  return log::level() <= log::Level::Info;
}

void RunContext::write_text(const std::string& relative, const std::string& content) const {
  if (!primary_) return;
  write_file_atomic(path(relative), content);
}
void RunContext::write_json(const std::string& relative, const Json& j) const {
  if (!primary_) return;
  write_file_atomic(path(relative), j.dump(2) + "\n");
}
void RunContext::write_table(const std::string& relative, const Table& t) const {
  if (!primary_) return;
  write_file_atomic(path(relative), t.to_csv());
}

void RunContext::say(const std::string& line) { lines_.push_back(line); }

void RunContext::finish() {
  if (finished_) return;
  finished_ = true;
  if (!primary_) return;
  Json res = memory_report();
  res["wall_seconds"] = log::elapsed_seconds() - start_s_;
  res["threads"] = threads_;
  summary_["resources"] = res;
  write_json("summary.json", summary_);
  std::printf("== mlsys %s ==\n", command_.c_str());
  for (const auto& l : lines_) std::printf("  %s\n", l.c_str());
  std::printf("  peak host memory %s, wall %.2f s\n", format_bytes(static_cast<double>(peak_rss_bytes())).c_str(),
              res["wall_seconds"].as_number());
  std::printf("  results: %s\n", out_dir_.string().c_str());
  std::fflush(stdout);
}

bool RunContext::stop_requested() { return interrupted(); }

}  // namespace mlsys
