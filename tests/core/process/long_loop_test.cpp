// LongLoop (core/process/long_loop.hpp): stops and progress come by time, whatever one round costs.
#include "core/process/long_loop.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include "core/process/system.hpp"
#include "core/util/error.hpp"

using namespace mlsys;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Busy work of about `us` microseconds (a round of a loop).
void spin_us(double us) {
  const auto t0 = Clock::now();
  while (seconds_since(t0) * 1e6 < us) {
  }
}

// Runs a loop whose rounds cost `round_us`; a SIGINT arrives after `signal_after_s`. Returns the
// seconds from the signal to the Interrupted the loop threw (-1 if it ran to `max_rounds`) and its message.
double stop_delay(double round_us, double signal_after_s, uint64_t max_rounds, std::string& message) {
  install_interrupt_handler();
  clear_interrupt();
  LongLoop loop("test loop", max_rounds, "rounds", LongLoop::Report());
  const auto t0 = Clock::now();
  Clock::time_point signalled{};
  bool sent = false;
  try {
    for (uint64_t i = 0; i < max_rounds; ++i) {
      spin_us(round_us);
      if (!sent && seconds_since(t0) >= signal_after_s) {
        std::raise(SIGINT);
        signalled = Clock::now();
        sent = true;
      }
      loop.tick(i + 1);
    }
  } catch (const Interrupted& e) {
    message = e.what();
    clear_interrupt();
    return seconds_since(signalled);
  }
  clear_interrupt();
  return -1;
}

}  // namespace

TEST_CASE("long loop: cheap and dear rounds alike stop within a fraction of a second of a signal") {
  // Cheap rounds (0.2 us) first grow the stride; then dear ones (2 ms) must not multiply it: the
  // old check every 65,536 rounds meant 131 s at 2 ms a round.
  for (double round_us : {0.2, 2000.0}) {
    std::string message;
    const double delay = stop_delay(round_us, 0.2, 10'000'000, message);
    INFO("round " << round_us << " us: stopped " << delay << " s after the signal: " << message);
    REQUIRE(delay >= 0);
    CHECK(delay < 0.1);
    CHECK(message.find("test loop stopped by SIGINT after ") != std::string::npos);
    CHECK(message.find(" of 10000000 rounds") != std::string::npos);
  }
}

TEST_CASE("long loop: a round that grows dearer mid-way is still checked by time") {
  // Rounds of a few nanoseconds for 0.2 s (the stride grows to its cap), then 5 ms rounds: the stop
  // flag is looked at every round, so the stop does not wait out the stride at the new cost
  // (4,096 x 5 ms = 20 s; with the old 65,536-round check 5.5 min).
  install_interrupt_handler();
  clear_interrupt();
  LongLoop loop("grow", 0, "rounds", LongLoop::Report());
  const auto t0 = Clock::now();
  uint64_t i = 0;
  while (seconds_since(t0) < 0.2) loop.tick(++i);
  std::raise(SIGINT);
  const auto signalled = Clock::now();
  double delay = -1;
  try {
    for (int k = 0; k < 100000; ++k) {
      spin_us(5000);
      loop.tick(++i);
    }
  } catch (const Interrupted&) {
    delay = seconds_since(signalled);
  }
  clear_interrupt();
  INFO("stopped " << delay << " s after the signal");
  REQUIRE(delay >= 0);
  CHECK(delay < 0.1);
}

TEST_CASE("long loop: progress is reported by time, not by count") {
  clear_interrupt();
  int reports = 0;
  uint64_t last = 0;
  LongLoop loop("report", 0, "rounds", [&](uint64_t done) {
    ++reports;
    last = done;
  });
  const auto t0 = Clock::now();
  uint64_t i = 0;
  while (seconds_since(t0) < 0.3) {
    spin_us(10);  // rounds of 10 us: a beat every ~1,000 of them (below the stride cap)
    loop.tick(++i);
  }
  // A beat about every 10 ms: ~30 reports in 0.3 s (not one per round: that would be ~30,000).
  INFO(reports << " reports over " << i << " rounds");
  CHECK(reports >= 10);
  CHECK(reports <= 100);
  CHECK(last > 0);
  loop.finish(i);
  CHECK(last == i);
}
