#include "core/process/long_loop.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/process/system.hpp"
#include "core/util/error.hpp"

namespace mlsys {

LongLoop::LongLoop(std::string what, uint64_t total, std::string unit)
    : LongLoop(std::move(what), total, std::move(unit), Report()) {
  if (progress_enabled()) progress_.emplace(what_, total_, unit_);
}

LongLoop::LongLoop(std::string what, uint64_t total, std::string unit, Report report)
    : what_(std::move(what)), unit_(std::move(unit)), total_(total), report_(std::move(report)) {
  start_ = last_ = std::chrono::steady_clock::now();
}

LongLoop::~LongLoop() {
  if (progress_) progress_->finish();
}

void LongLoop::beat(uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (interrupted()) {
    const double el = std::chrono::duration<double>(now - start_).count();
    std::string how_far = total_ > 0 ? fmt::format("{} of {} {} ({:.1f}%)", done, total_, unit_,
                                                   100.0 * static_cast<double>(done) / static_cast<double>(total_))
                                     : fmt::format("{} {}", done, unit_);
    throw Interrupted(fmt::format("{} stopped by {} after {} in {:.1f} s", what_, interrupt_signal_name(), how_far, el));
  }
  // Aim the next beat kBeatSeconds ahead: double a stride that came back early, scale down one
  // that took too long (the rounds grew dearer).
  const double dt = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  if (dt < kBeatSeconds / 2)
    stride_ = std::min(stride_ * 2, kMaxStride);
  else if (dt > kBeatSeconds * 2)
    stride_ = std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(stride_) * kBeatSeconds / dt));
  left_ = stride_;
  if (report_) report_(done);
  if (progress_) progress_->update(done);
}

void LongLoop::finish(uint64_t done) {
  if (report_) report_(done);
  if (!progress_) return;
  progress_->update(done);
  progress_->finish();
}

}  // namespace mlsys
