#include "core/comm/link_queue.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/util/error.hpp"

using namespace mlsys;
using Clock = comm::LinkQueue::Clock;

namespace {

Clock::duration ms(int v) { return std::chrono::milliseconds(v); }

// Delivery times, in ms after t0, of a bulk message posted at 0 (10 ms on the link), a second bulk
// one posted at 1 ms (10 ms) and an urgent one posted at 2 ms (1 ms), under `schedule`.
std::vector<double> three(const std::string& schedule) {
  comm::LinkQueue link(comm::link_schedule(schedule));
  const Clock::time_point t0{};
  std::vector<Clock::time_point> at(3);
  link.add(t0, ms(10), comm::kPriorityNormal, &at[0]);
  link.add(t0 + ms(1), ms(10), comm::kPriorityNormal, &at[1]);
  link.add(t0 + ms(2), ms(1), comm::kPriorityUrgent, &at[2]);
  std::vector<double> out;
  for (auto t : at) out.push_back(std::chrono::duration<double, std::milli>(t - t0).count());
  return out;
}

}  // namespace

TEST_CASE("comm/link_queue: fifo, priority and preempt order the same messages differently, link time conserved") {
  // fifo: posting order, back to back.
  CHECK(three("fifo") == std::vector<double>{10, 20, 21});
  // priority: the urgent message passes the queued bulk one, not the one in transmission.
  CHECK(three("priority") == std::vector<double>{10, 21, 11});
  // preempt: it also interrupts the one in transmission, which resumes after it (1 ms later).
  CHECK(three("preempt") == std::vector<double>{11, 21, 3});
  // Every schedule keeps the link busy for the same 21 ms: the last delivery is the same.
  for (const char* s : {"fifo", "priority", "preempt"}) {
    CAPTURE(s);
    auto d = three(s);
    CHECK(*std::max_element(d.begin(), d.end()) == 21);
  }
}

TEST_CASE("comm/link_queue: equal priorities keep posting order, delivered messages are not re-timed") {
  comm::LinkQueue link(comm::link_schedule("preempt"));
  const Clock::time_point t0{};
  Clock::time_point a, b, c, d;
  link.add(t0, ms(5), comm::kPriorityUrgent, &a);
  link.add(t0 + ms(1), ms(5), comm::kPriorityUrgent, &b);  // as urgent as a: no preemption, after a
  CHECK(a == t0 + ms(5));
  CHECK(b == t0 + ms(10));
  CHECK(link.pending() == 2);
  // At 6 ms, a was delivered (and may be gone): only b is pending, and a more urgent message
  // passes b without touching a.
  link.add(t0 + ms(6), ms(2), comm::kPriorityUrgent + 1, &c);
  CHECK(a == t0 + ms(5));
  CHECK(c == t0 + ms(8));
  CHECK(b == t0 + ms(12));
  CHECK(link.pending() == 2);
  // An idle link starts a message when it is posted.
  link.add(t0 + ms(100), ms(3), comm::kPriorityNormal, &d);
  CHECK(d == t0 + ms(103));
  CHECK(link.pending() == 1);
}

TEST_CASE("comm/link_queue: unknown schedule names the valid ones") {
  CHECK_THROWS_WITH_AS(comm::link_schedule("lifo"), doctest::Contains("fifo, priority, preempt"), ConfigError);
}
