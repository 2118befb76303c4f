#include "core/comm/progress_engine.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/comm/factory.hpp"
#include "core/util/error.hpp"

using namespace mlsys;

TEST_CASE("comm/progress_engine: a delivered transfer progresses while the rank computes, decode runs on the engine") {
  // 1 MiB at 0.05 GB/s with comm.link_sleep: each message is held ~21 ms. The rank "computes"
  // (sleeps) longer than that after submitting, so by the time it waits the exchange is done:
  // the wait is near zero though the transfer took ~21 ms.
  CommOptions o;
  o.link_model = true;
  o.link_sleep = true;
  o.link_preset = "pcie4";
  o.link_bandwidth_gbps = 0.05;
  const size_t bytes = 1 << 20;
  std::mutex mu;
  std::vector<double> blocked(2), busy(2);
  std::vector<bool> decoded(2, false), decoded_on_engine(2, false);
  comm::run_inproc(2, o, [&](comm::Communicator& c) {
    std::vector<uint8_t> s(2 * bytes, uint8_t(c.rank() + 1)), r(2 * bytes, 0);
    std::vector<size_t> cnt(2, bytes);
    const auto me = std::this_thread::get_id();
    comm::ProgressEngine engine(c);
    bool dec = false, on_engine = false;
    comm::Ticket t = engine.submit({"test all-to-all",
                                    [&](comm::Communicator& cc) { return cc.iall_to_all_v(s.data(), cnt, r.data(), cnt); },
                                    [&] {
                                      dec = r[(1 - c.rank()) * bytes] == uint8_t(2 - c.rank());
                                      on_engine = std::this_thread::get_id() != me;
                                    }});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // compute
    const double b = t.wait();
    std::lock_guard<std::mutex> lock(mu);
    blocked[size_t(c.rank())] = b;
    decoded[size_t(c.rank())] = dec;
    decoded_on_engine[size_t(c.rank())] = on_engine;
  });
  for (int r = 0; r < 2; ++r) {
    CAPTURE(r);
    CHECK(decoded[size_t(r)]);
    CHECK(decoded_on_engine[size_t(r)]);
    CHECK(blocked[size_t(r)] < 0.015);  // well under the ~21 ms delivered transfer
  }
}

TEST_CASE("comm/progress_engine: jobs keep submission order and a failing job's error reaches its waiter") {
  CommOptions o;
  comm::run_inproc(2, o, [&](comm::Communicator& c) {
    comm::ProgressEngine engine(c);
    std::vector<int> order;
    std::vector<comm::Ticket> ts;
    for (int i = 0; i < 5; ++i)
      ts.push_back(engine.submit({"step", [&order, i](comm::Communicator& cc) {
                                    order.push_back(i);
                                    return cc.ibarrier();
                                  },
                                  {}}));
    for (auto& t : ts) t.wait();
    CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
    comm::Ticket bad = engine.submit({"failing step", [](comm::Communicator&) -> comm::Request { throw Error("boom"); }, {}});
    CHECK_THROWS_WITH_AS(bad.wait(), doctest::Contains("boom"), Error);
    double blocked = engine.call("all-reduce", [](comm::Communicator& cc) {
      std::vector<float> v(4, 1.0f);
      cc.all_reduce(v.data(), v.size(), DType::f32);
      CHECK(v[0] == 2.0f);
    });
    CHECK(blocked >= 0);
  });
}

TEST_CASE("comm/progress_engine: an urgent job is finished before less urgent ones, with its priority set") {
  // The engine is held inside a first job while a normal and then an urgent job are queued, both
  // complete at once: they start in submission order (normal first), but the urgent one finishes
  // first, and each step sees its own priority on the communicator.
  CommOptions o;
  comm::run_inproc(1, o, [&](comm::Communicator& c) {
    comm::ProgressEngine engine(c);
    std::mutex mu;
    std::vector<std::string> log;
    auto note = [&](const std::string& s) {
      std::lock_guard<std::mutex> lock(mu);
      log.push_back(s);
    };
    std::promise<void> release;
    std::shared_future<void> held = release.get_future().share();
    auto job = [&](const std::string& name, int priority, bool hold) {
      return comm::Job{name,
                       [&, name, hold, held](comm::Communicator& cc) {
                         if (hold) held.wait();
                         note("start " + name + " p" + std::to_string(cc.priority()));
                         return comm::Request();
                       },
                       [&, name] { note("finish " + name + " p" + std::to_string(c.priority())); }, priority};
    };
    comm::Ticket first = engine.submit(job("hold", comm::kPriorityNormal, true));
    comm::Ticket normal = engine.submit(job("halo", comm::kPriorityNormal, false));
    comm::Ticket urgent = engine.submit(job("grads", comm::kPriorityUrgent, false));
    release.set_value();
    first.wait();
    normal.wait();
    urgent.wait();
    CHECK(log == std::vector<std::string>{"start hold p0", "finish hold p0", "start halo p0", "start grads p1",
                                          "finish grads p1", "finish halo p0"});
    CHECK(c.priority() == comm::kPriorityNormal);
  });
}
