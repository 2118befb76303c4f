#pragma once
// Progress for long loops: a live bar with rate and ETA on a terminal, periodic plain log lines
// otherwise (CI logs, pipes). Silent at log level warn or above.
#include <chrono>
#include <cstdint>
#include <string>

namespace mlsys {

class Progress {
 public:
  // total = 0 means unknown (no ETA). `unit` names what is counted ("jobs", "epochs").
  Progress(std::string label, uint64_t total, std::string unit = "it");
  ~Progress();
  // Advance to `done` items; `status` is an optional short suffix ("loss 0.53 acc 81.2%").
  void update(uint64_t done, const std::string& status = "");
  void finish(const std::string& status = "");

 private:
  void draw(bool final);
  std::string label_, unit_, status_;
  uint64_t total_, done_ = 0;
  bool tty_, enabled_, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
  double line_every_s_ = 5.0;
};

}  // namespace mlsys
