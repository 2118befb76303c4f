#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <unordered_set>

#include "core/runtime/event_queue.hpp"
#include "core/util/random.hpp"

using namespace mlsys;

TEST_CASE("event queue: 1M random events pop in (time, insertion) order") {
  EventQueue<uint32_t> q;
  Rng rng(42);
  // Few distinct times so ties are frequent.
  auto t = [](Rng& r) { return static_cast<int>(r.below(10000)); };
  const uint32_t n = 1000000;
  std::vector<std::pair<double, uint32_t>> expected;
  expected.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    double time = t(rng) * 0.5;
    q.push(time, i);
    expected.emplace_back(time, i);
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (uint32_t i = 0; i < n; ++i) {
    auto e = q.pop();
    if (e.time != expected[i].first || e.payload != expected[i].second) {
      FAIL("order broken at " << i << ": got (" << e.time << ", " << e.payload << ") expected ("
                              << expected[i].first << ", " << expected[i].second << ")");
    }
  }
  CHECK(q.empty());
}

TEST_CASE("event queue: interleaved pushes and pops keep order, ties by insertion") {
  EventQueue<int> q;
  q.push(5.0, 1);
  q.push(1.0, 2);
  q.push(5.0, 3);
  CHECK(q.pop().payload == 2);
  q.push(5.0, 4);
  q.push(3.0, 5);
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  CHECK(order == std::vector<int>{5, 1, 3, 4});
}

TEST_CASE("event queue: cancellation of 1M random events removes exactly the cancelled") {
  EventQueue<uint32_t> q;
  Rng rng(7);
  auto t = [](Rng& r) { return 1e6 * r.uniform(); };
  std::vector<EventId> ids;
  const uint32_t n = 1000000;
  for (uint32_t i = 0; i < n; ++i) ids.push_back(q.push(t(rng), i));
  std::unordered_set<uint32_t> cancelled;
  for (uint32_t i = 0; i < n; i += 3) {
    q.cancel(ids[i]);
    cancelled.insert(i);
  }
  q.cancel(ids[0]);  // twice: still a no-op
  size_t popped = 0;
  double last = -1;
  while (!q.empty()) {
    auto e = q.pop();
    CHECK_FALSE(cancelled.count(e.payload));
    if (e.time < last) FAIL("time went backwards");
    last = e.time;
    ++popped;
  }
  CHECK(popped == n - cancelled.size());
}

TEST_CASE("event queue: cancelling the head and top() are consistent") {
  EventQueue<int> q;
  auto a = q.push(1.0, 10);
  q.push(2.0, 20);
  CHECK(q.top_time() == 1.0);
  q.cancel(a);
  CHECK(q.top_time() == 2.0);
  CHECK(q.pop().payload == 20);
  CHECK(q.empty());
}

TEST_CASE("event queue: large payloads, ids, and scheduling in the past is rejected") {
  EventQueue<std::string> q;
  auto a = q.push(2.0, std::string(100, 'a'));
  auto b = q.push(1.0, "b");
  q.push(1.0, "c");
  auto e = q.pop();
  CHECK(e.payload == "b");
  CHECK(e.id == b);
  q.cancel(a);
  CHECK(q.pop().payload == "c");
  CHECK(q.empty());
  CHECK_THROWS_AS(q.push(0.5, "past"), std::logic_error);
  CHECK_NOTHROW(q.push(1.0, "now"));
  CHECK(q.pop().time == 1.0);
}

TEST_CASE("event queue: negative and mixed-sign times order correctly") {
  EventQueue<int> q;
  for (int i : {3, -2, 0, -7, 5}) q.push(static_cast<double>(i), i);
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  CHECK(order == std::vector<int>{-7, -2, 0, 3, 5});
}

TEST_CASE("event queue: peeking does not advance time, pushes into the gap after a cancelled head") {
  EventQueue<int> q;
  q.push(10.0, 1);
  CHECK(q.top_time() == 10.0);
  q.push(5.0, 2);  // earlier than the peeked head, still after the last pop
  CHECK(q.top_time() == 5.0);
  CHECK(q.pop().payload == 2);
  auto c = q.push(7.0, 3);
  q.cancel(c);
  CHECK(q.size() == 1);
  CHECK(q.pop().payload == 1);  // drops the cancelled event at 7 on the way
  CHECK(q.empty());
  EventQueue<int> r;
  r.push(1.0, 1);
  auto x = r.push(3.0, 2);
  r.push(9.0, 3);
  CHECK(r.pop().payload == 1);
  r.cancel(x);
  r.cancel(x);
  CHECK(r.size() == 1);
  CHECK(r.pop().payload == 3);  // time is now 9
  r.push(9.0, 4);
  CHECK(r.pop().payload == 4);
}
