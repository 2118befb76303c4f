#pragma once
// Progress for long loops: a live bar with rate and ETA on a terminal, and plain lines (rate, ETA)
// every few seconds in the log: on stderr and run.log when stderr is not a terminal, in run.log
// alone beside the bar. Quiet for a phase that ends within a second or two, silent when progress
// is off (run.progress) or at log level warn or above. Loops drive it through LongLoop
// (core/process/long_loop.hpp), which also honours a stop signal.
#include <chrono>
#include <cstdint>
#include <string>

namespace mlsys {

// The run's progress setting (run.progress: auto, on, off), applied by RunContext; "auto" shows
// progress at log level info or below.
void set_progress_setting(const std::string& setting);
bool progress_enabled();

class Progress {
 public:
  // total = 0 means unknown (no ETA). `unit` names what is counted ("jobs", "epochs").
  Progress(std::string label, uint64_t total, std::string unit = "it");
  ~Progress();
  // Advance to `done` items; `status` is an optional short suffix ("loss 0.53 acc 81.2%").
  void update(uint64_t done, const std::string& status = "");
  // The final line, when anything was shown.
  void finish(const std::string& status = "");

  // The first log line comes this long after the start (a shorter phase prints none), then one
  // every kLineEverySeconds; the bar appears after kBarAfterSeconds.
  static constexpr double kFirstLineSeconds = 2.0;
  static constexpr double kLineEverySeconds = 5.0;
  static constexpr double kBarAfterSeconds = 0.5;

 private:
  void draw_bar(bool final);
  void write_line();
  std::string tail() const;
  std::string label_, unit_, status_;
  uint64_t total_, done_ = 0;
  bool tty_, enabled_, finished_ = false, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_bar_;
  double next_line_s_ = kFirstLineSeconds;
};

}  // namespace mlsys
