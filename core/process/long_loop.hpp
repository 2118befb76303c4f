#pragma once
// The one helper for long loops (simulation rounds, trace rows and file chunks, generated jobs):
// it honours a stop signal (SIGINT, SIGTERM) and reports progress by elapsed time, never by a count
// of rounds, whose cost ranges from nanoseconds (FIFO on a short queue) to milliseconds (SRTF over
// 400k pending jobs): a stop every 65,536 rounds took minutes there.
//
//   LongLoop loop("simulation", jobs.size(), "jobs finished");
//   while (...) { ...; loop.tick(finished); }
//
// tick() counts down and looks at the stop flag (one relaxed atomic load: core/process/system.hpp);
// a stop signal makes it throw Interrupted at once, naming the signal and how far the loop got, so a
// stop waits for one round at most. When the count runs out beat() reads the steady clock and
// updates the progress display; the count is re-sized at every beat so that the clock is read about
// every kBeatSeconds whatever a round costs (capped at kMaxStride rounds, so a round that suddenly
// costs much more delays progress by at most that many of them). The hot path stays a decrement,
// a load and a branch (bench_sim_engine: no measurable change).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/log/progress.hpp"
#include "core/process/system.hpp"

namespace mlsys {

class LongLoop {
 public:
  using Report = std::function<void(uint64_t done)>;
  static constexpr double kBeatSeconds = 0.01;
  static constexpr uint64_t kMaxStride = 4096;

  // Shows its own progress (core/log/progress.hpp: a bar on a terminal, lines in the log) while
  // run.progress allows it; `total` 0 = unknown (no ETA).
  LongLoop(std::string what, uint64_t total, std::string unit);
  // Progress goes to `report` (a display the caller owns, e.g. one summed over several loops) at
  // every beat; none is shown here. `report` may be empty: stop checks only.
  LongLoop(std::string what, uint64_t total, std::string unit, Report report);
  ~LongLoop();
  LongLoop(const LongLoop&) = delete;
  LongLoop& operator=(const LongLoop&) = delete;

  // Once per round, with the amount done so far (in `unit`).
  void tick(uint64_t done) {
    if (--left_ == 0 || interrupted()) [[unlikely]]
      beat(done);
  }
  // Throws Interrupted after a stop signal; reads the clock and reports progress.
  void beat(uint64_t done);
  // The loop ended with `done`: the final progress line (when any was shown).
  void finish(uint64_t done);

 private:
  std::string what_, unit_;
  uint64_t total_;
  Report report_;
  std::optional<Progress> progress_;
  uint64_t stride_ = 1, left_ = 1;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace mlsys
