#pragma once
// Chrome trace-event JSON (opens in Perfetto or chrome://tracing): complete spans, instants and
// counters, grouped per process ("pid") and track ("tid"). Thread-safe; written atomically.
//
// Several processes (MPI ranks) make one trace on one clock: after a barrier every rank takes the
// moment it was released as time zero (align_trace_clock), stamps its events with
// trace_clock_us(), and gather() collects every rank's events at the root, which writes one file.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mlsys {

namespace comm {
class Communicator;
}

// Microseconds on this process's monotonic clock (the raw value trace times are measured from).
double steady_clock_us();
// The trace clock's origin on steady_clock_us(): process start until align_trace_clock() moves it.
double trace_origin_us();
// Microseconds since the trace origin.
double trace_clock_us();
// Collective: a barrier on `c`, then every rank sets the trace origin to the moment it left it, so
// the ranks' clocks agree to within the barrier's release skew (microseconds on one node).
void align_trace_clock(comm::Communicator& c);

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
  // Collective: appends every other rank's events to `root`'s writer, in rank order (the other
  // ranks keep theirs). Events keep their pid, so give each rank its own (e.g. pid = rank).
  void gather(comm::Communicator& c, int root = 0);

 private:
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

}  // namespace mlsys
