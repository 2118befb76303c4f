#include "sched/schedmate/tracker/follow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "sched/schedmate/io/bounded_input.hpp"

namespace mlsys::schedmate {

double wall_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

FollowResult follow_file(const std::string& path, MetricTracker& tracker, const FollowOptions& opt,
                         const std::function<bool(const std::string&)>& on_line, bool stop_on_stall) {
  using clock = std::chrono::steady_clock;
  const double poll = std::clamp(opt.poll_interval_s, 0.001, 5.0);
  const auto start = clock::now();
  auto last_data = start;
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  FollowResult r;
  std::ifstream in;
  std::streamoff offset = 0;
  std::string partial;
  bool skipping = false;  // inside a line longer than the cap
  char buf[1 << 16];
  while (true) {
    if (RunContext::stop_requested()) {
      r.stop_reason = "interrupted";
      return r;
    }
    if (!in.is_open()) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw InputError(path + ": not a regular file (devices and FIFOs are not followed); name a log file");
      in.open(path, std::ios::binary);
      if (!in.is_open() && !opt.wait_for_file) throw Error("cannot open log " + path + " to follow");
      if (!in.is_open() && opt.wait_s > 0 && seconds_since(start) > opt.wait_s)
        throw InputError(path + ": the log did not appear within schedmate.follow_wait_s = " +
                         fmt::format("{:g}", opt.wait_s) + " s; check the path or wait longer");
    }
    bool got = false;
    if (in.is_open()) {
      in.clear();
      in.seekg(offset);
      while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        std::streamsize n = in.gcount();
        offset += n;
        got = true;
        partial.append(buf, static_cast<size_t>(n));
        size_t pos = 0, nl;
        while (true) {
          nl = partial.find('\n', pos);
          std::string line;
          if (nl == std::string::npos) {
            // A line longer than the cap: its first part counts as the line, the rest is skipped.
            if (skipping) {
              pos = partial.size();
              break;
            }
            if (partial.size() - pos <= opt.max_line_bytes) break;
            line = partial.substr(pos, opt.max_line_bytes);
            pos = partial.size();
            skipping = true;
          } else {
            const bool cut = skipping;
            skipping = false;
            line = partial.substr(pos, std::min(nl - pos, opt.max_line_bytes));
            pos = nl + 1;
            if (cut) continue;  // the tail of a line already cut
          }
          if (!line.empty() && line.back() == '\r') line.pop_back();
          line = valid_utf8(line);
          tracker.feed(line, wall_seconds());
          ++r.lines;
          if (on_line && !on_line(line)) {
            r.stop_reason = "stop_line";
            return r;
          }
        }
        partial.erase(0, pos);
        if (n < static_cast<std::streamsize>(sizeof buf)) break;
      }
    }
    if (got) last_data = clock::now();
    auto snap = tracker.snapshot();
    if (!std::isnan(snap.fraction) && snap.fraction >= 1.0) {
      r.stop_reason = "finished";
      return r;
    }
    if (tracker.tick(wall_seconds()) && stop_on_stall) {
      r.stop_reason = "stalled";
      return r;
    }
    if (seconds_since(last_data) >= opt.idle_timeout_s) {
      r.stop_reason = "idle";
      return r;
    }
    if (seconds_since(start) >= opt.max_s) {
      r.stop_reason = "max_time";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(poll));
  }
}

}  // namespace mlsys::schedmate
