// Event-queue throughput: push 1M events with random times, then pop them all; reports
// operations (push + pop) per second on one core, beside std::priority_queue doing the same
// work in the same run (a binary heap without tie-breaking by insertion order or cancellation).
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <cstdint>
#include <queue>
#include <vector>

#include "core/runtime/event_queue.hpp"
#include "core/util/random.hpp"

// Thread CPU time, not wall time: the result should not depend on what else the machine runs.
struct Clock {
  using time_point = std::chrono::duration<double>;
  static time_point now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec));
  }
};

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::stoull(argv[1]) : 1000000;
  const int reps = 5;
  mlsys::Rng rng(1);
  std::vector<double> times(n);
  for (auto& t : times) t = 1e6 * rng.uniform();

  double best_ours = 1e30, best_std = 1e30;
  uint64_t check = 0;
  for (int r = 0; r < reps; ++r) {
    mlsys::EventQueue<uint32_t> q;
    q.reserve(n);
    auto t0 = Clock::now();
    for (size_t i = 0; i < n; ++i) q.push(times[i], static_cast<uint32_t>(i));
    double last = -1;
    while (!q.empty()) {
      auto e = q.pop();
      if (e.time < last) ++check;  // counts order violations; must stay 0
      last = e.time;
    }
    best_ours = std::min(best_ours, (Clock::now() - t0).count());

    struct E {
      double t;
      uint64_t seq;
      uint32_t p;
      bool operator<(const E& o) const { return t > o.t || (t == o.t && seq > o.seq); }
    };
    std::vector<E> storage;
    storage.reserve(n);
    std::priority_queue<E> pq(std::less<E>(), std::move(storage));
    auto t1 = Clock::now();
    for (size_t i = 0; i < n; ++i) pq.push(E{times[i], i, static_cast<uint32_t>(i)});
    while (!pq.empty()) pq.pop();
    best_std = std::min(best_std, (Clock::now() - t1).count());
  }
  double ops = 2.0 * static_cast<double>(n);
  fmt::print("event_queue n={} best of {}: {:.1f} M ops/s (push+pop), std::priority_queue {:.1f} M ops/s, ratio {:.2f}x "
             "(order violations: {})\n",
             n, reps, ops / best_ours / 1e6, ops / best_std / 1e6, best_std / best_ours, check);
  return 0;
}
