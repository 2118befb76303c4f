#include "core/log/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "core/log/log.hpp"

namespace mlsys {

namespace {
// -1 auto, 0 off, 1 on.
std::atomic<int> g_setting{-1};
}  // namespace

void set_progress_setting(const std::string& setting) { g_setting = setting == "off" ? 0 : setting == "on" ? 1 : -1; }

bool progress_enabled() {
  const int s = g_setting.load();
  return s < 0 ? log::level() <= log::Level::Info : s == 1;
}

Progress::Progress(std::string label, uint64_t total, std::string unit)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total) {
  tty_ = log::stderr_is_tty();
  enabled_ = progress_enabled() && log::level() <= log::Level::Info;
  start_ = last_bar_ = std::chrono::steady_clock::now();
}

Progress::~Progress() {
  if (!finished_) finish();
}

void Progress::update(uint64_t done, const std::string& status) {
  done_ = done;
  status_ = status;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  const double el = std::chrono::duration<double>(now - start_).count();
  if (tty_ && el >= kBarAfterSeconds && std::chrono::duration<double>(now - last_bar_).count() >= 0.1) {
    last_bar_ = now;
    draw_bar(false);
  }
  if (el >= next_line_s_) {
    next_line_s_ = el + kLineEverySeconds;
    write_line();
  }
}

void Progress::finish(const std::string& status) {
  if (finished_) return;
  finished_ = true;
  if (!status.empty()) status_ = status;
  if (!enabled_ || !shown_) return;
  if (tty_) draw_bar(true);
  write_line();
}

std::string Progress::tail() const {
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = el > 0 ? static_cast<double>(done_) / el : 0.0;
  std::string eta;
  if (total_ > 0 && rate > 0 && done_ < total_)
    eta = fmt::format(" eta {:.0f}s", static_cast<double>(total_ - done_) / rate);
  std::string count = total_ ? fmt::format("{}/{}", done_, total_) : fmt::format("{}", done_);
  return fmt::format("{} {} {:.1f} {}/s{}{}", count, unit_, rate, unit_, eta, status_.empty() ? "" : "  " + status_);
}

void Progress::draw_bar(bool final) {
  shown_ = true;
  std::string bar;
  if (total_ > 0) {
    int width = 24, filled = static_cast<int>(width * static_cast<double>(done_) / static_cast<double>(total_));
    bar = "[" + std::string(static_cast<size_t>(std::min(filled, width)), '#') +
          std::string(static_cast<size_t>(width - std::min(filled, width)), '.') + "] ";
  }
  std::fprintf(stderr, "\r\033[K%s %s%s%s", label_.c_str(), bar.c_str(), tail().c_str(), final ? "\n" : "");
  std::fflush(stderr);
}

// Beside a bar the line goes to run.log only (the terminal has the bar); otherwise to both.
void Progress::write_line() {
  shown_ = true;
  const std::string line = label_ + ": " + tail();
  if (tty_) log::write_file_only(log::Level::Info, line);
  else log::write(log::Level::Info, line);
}

}  // namespace mlsys
