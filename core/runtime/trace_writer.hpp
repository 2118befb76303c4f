#pragma once
// Chrome trace-event JSON (opens in Perfetto or chrome://tracing): complete spans, instants and
// counters, grouped per process ("pid") and track ("tid"). Thread-safe; written atomically.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mlsys {

class TraceWriter {
 public:
  // Names a track so viewers show e.g. "worker 2 / comm" instead of numbers.
  void name_track(int pid, int tid, const std::string& process_name, const std::string& thread_name);
  // A span [start_us, start_us + dur_us) on a track.
  void span(int pid, int tid, const std::string& name, double start_us, double dur_us,
            const std::string& category = "");
  void instant(int pid, int tid, const std::string& name, double ts_us);
  void counter(int pid, const std::string& name, double ts_us, double value);
  size_t size() const;
  std::string to_json() const;
  void write(const std::string& path) const;

 private:
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

}  // namespace mlsys
