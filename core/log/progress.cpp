#include "core/log/progress.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/log/log.hpp"

namespace mlsys {

Progress::Progress(std::string label, uint64_t total, std::string unit)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total) {
  tty_ = log::stderr_is_tty();
  enabled_ = log::level() <= log::Level::Info;
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

Progress::~Progress() {
  if (!finished_) finish();
}

void Progress::update(uint64_t done, const std::string& status) {
  done_ = done;
  status_ = status;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_draw_).count();
  if ((tty_ && since >= 0.1) || (!tty_ && since >= line_every_s_)) {
    last_draw_ = now;
    draw(false);
  }
}

void Progress::finish(const std::string& status) {
  if (finished_) return;
  finished_ = true;
  if (!status.empty()) status_ = status;
  if (enabled_) draw(true);
}

void Progress::draw(bool final) {
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = el > 0 ? static_cast<double>(done_) / el : 0.0;
  std::string eta;
  if (total_ > 0 && rate > 0 && done_ < total_)
    eta = fmt::format(" eta {:.0f}s", static_cast<double>(total_ - done_) / rate);
  std::string count = total_ ? fmt::format("{}/{}", done_, total_) : fmt::format("{}", done_);
  std::string tail = fmt::format("{} {} {:.1f} {}/s{}{}", count, unit_, rate, unit_, eta,
                                 status_.empty() ? "" : "  " + status_);
  if (tty_) {
    std::string bar;
    if (total_ > 0) {
      int width = 24, filled = static_cast<int>(width * static_cast<double>(done_) / static_cast<double>(total_));
      bar = "[" + std::string(static_cast<size_t>(std::min(filled, width)), '#') +
            std::string(static_cast<size_t>(width - std::min(filled, width)), '.') + "] ";
    }
    std::fprintf(stderr, "\r\033[K%s %s%s%s", label_.c_str(), bar.c_str(), tail.c_str(), final ? "\n" : "");
    std::fflush(stderr);
  } else {
    log::info("{}: {}", label_, tail);
  }
}

}  // namespace mlsys
