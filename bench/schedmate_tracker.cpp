// Embedded Metric Tracker throughput on one core: generated logs of every format are fed line by
// line; the baseline in the same run is a raw line-splitting pass over the same bytes (the floor
// any tracker pays). Target: >= 500k lines/s.
//   bench_schedmate_tracker [lines_per_format]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/generator/log_generator.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"

using namespace mlsys::schedmate;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

int main(int argc, char** argv) {
  const long steps = argc > 1 ? std::atol(argv[1]) : 400000;
  struct Input {
    LogFormat format;
    std::string text;
    size_t lines;
  };
  std::vector<Input> inputs;
  for (LogFormat f : generated_formats()) {
    LogSpec s;
    s.format = f;
    s.total_steps = steps;
    s.log_every = 1;
    s.steps_per_s = 20;
    GeneratedLog g = generate_log(s);
    inputs.push_back({f, g.text(), g.lines.size()});
  }
  std::printf("bench_schedmate_tracker: %ld steps per format, one line per step, one thread\n", steps);
  std::printf("%-12s %10s %14s %16s %10s\n", "format", "lines", "split Mlines/s", "tracker Mlines/s", "tracker/split");
  size_t total_lines = 0;
  double total_split = 0, total_track = 0;
  for (const auto& in : inputs) {
    // Baseline: find each line and touch its bytes (checksum keeps the loop from being elided).
    double best_split = 1e30, best_track = 1e30;
    unsigned long sink = 0;
    for (int rep = 0; rep < 3; ++rep) {
      double t0 = now();
      std::string_view all(in.text);
      size_t pos = 0;
      while (pos < all.size()) {
        size_t nl = all.find('\n', pos);
        if (nl == std::string_view::npos) nl = all.size();
        std::string_view line = all.substr(pos, nl - pos);
        sink += line.size() + static_cast<unsigned char>(line.empty() ? 0 : line[0]);
        pos = nl + 1;
      }
      best_split = std::min(best_split, now() - t0);
      t0 = now();
      TrackerOptions o;
      o.keep_series = false;
      MetricTracker tr(o);
      pos = 0;
      while (pos < all.size()) {
        size_t nl = all.find('\n', pos);
        if (nl == std::string_view::npos) nl = all.size();
        tr.feed(all.substr(pos, nl - pos));
        pos = nl + 1;
      }
      best_track = std::min(best_track, now() - t0);
      if (!(tr.snapshot().fraction >= 0.999)) {
        std::fprintf(stderr, "tracker did not reach the end of the %s log\n", to_string(in.format));
        return 1;
      }
    }
    std::printf("%-12s %10zu %14.2f %16.2f %10.2f%s\n", to_string(in.format), in.lines, in.lines / best_split / 1e6,
                in.lines / best_track / 1e6, best_track / best_split, sink == 0 ? "!" : "");
    total_lines += in.lines;
    total_split += best_split;
    total_track += best_track;
  }
  std::printf("%-12s %10zu %14.2f %16.2f %10.2f\n", "all", total_lines, total_lines / total_split / 1e6,
              total_lines / total_track / 1e6, total_track / total_split);
  const double rate = total_lines / total_track;
  std::printf("tracker: %.0f lines/s (target >= 500000): %s\n", rate, rate >= 500000 ? "PASS" : "FAIL");
  return 0;
}
