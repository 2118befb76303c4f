#include "core/comm/link_model.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>

#include "core/comm/factory.hpp"
#include "core/comm/quantized.hpp"
#include "core/util/error.hpp"

using namespace mlsys;

TEST_CASE("comm/link_model: presets, overrides and intra/inter-node classes") {
  for (auto& p : comm::link_presets()) {
    CHECK(p.latency_us > 0);
    CHECK(p.bandwidth_gbps > 0);
    CHECK(!p.description.empty());
  }
  CHECK_THROWS_AS(comm::link_preset("token-ring"), ConfigError);
  CommOptions o;
  o.link_model = true;
  o.link_preset = "nvlink";
  o.link_inter_preset = "infiniband100";
  o.link_ranks_per_node = 2;
  comm::LinkModel m(o);
  auto nv = comm::link_preset("nvlink"), ib = comm::link_preset("infiniband100");
  CHECK(m.message_seconds(0, 1, 1000000) == doctest::Approx(nv.latency_us * 1e-6 + 1e6 / (nv.bandwidth_gbps * 1e9)));
  CHECK(m.message_seconds(1, 2, 1000000) == doctest::Approx(ib.latency_us * 1e-6 + 1e6 / (ib.bandwidth_gbps * 1e9)));
  CHECK(m.message_seconds(1, 1, 1000000) == 0.0);
  o.link_latency_us = 100;
  o.link_bandwidth_gbps = 1;
  CHECK(comm::LinkModel(o).message_seconds(0, 1, 1000000) == doctest::Approx(100e-6 + 1e-3));
  o.link_model = false;
  CHECK(comm::LinkModel(o).message_seconds(0, 1, 1000000) == 0.0);
}

TEST_CASE("comm/inproc: modeled time is charged per message and kept apart from measured time") {
  CommOptions o;
  o.link_model = true;
  o.link_preset = "ethernet25";
  const size_t bytes = 1 << 20;
  auto eth = comm::link_preset("ethernet25");
  std::mutex mu;
  std::vector<comm::CommStats> st(3);
  comm::run_inproc(3, o, [&](comm::Communicator& c) {
    std::vector<uint8_t> s(bytes * 3), r(bytes * 3);
    std::vector<size_t> cnt(3, bytes);
    c.all_to_all_v(s.data(), cnt, r.data(), cnt);
    std::lock_guard<std::mutex> lock(mu);
    st[size_t(c.rank())] = c.stats();
  });
  for (auto& s : st) {
    CHECK(s.messages == 2);
    CHECK(s.bytes_sent == 2 * bytes);
    CHECK(s.modeled_seconds ==
          doctest::Approx(2 * (eth.latency_us * 1e-6 + double(bytes) / (eth.bandwidth_gbps * 1e9))));
    CHECK(comm::describe(s).find("MODELED link time") != std::string::npos);
    CHECK(comm::describe(s).find("measured wait") != std::string::npos);
  }
  // With link_sleep the receiver sees the modeled delivery time as measured time too.
  o.link_sleep = true;
  o.link_preset = "pcie4";
  o.link_bandwidth_gbps = 0.05;  // 1 MiB -> ~21 ms
  std::atomic<int64_t> sent_ns{0}, received_ns{0};
  auto now_ns = [] { return std::chrono::steady_clock::now().time_since_epoch().count(); };
  comm::run_inproc(2, o, [&](comm::Communicator& c) {
    std::vector<uint8_t> buf(bytes);
    if (c.rank() == 0) {
      sent_ns = now_ns();
      c.send(buf.data(), bytes, 1);
    } else {
      c.recv(buf.data(), bytes, 0);
      received_ns = now_ns();
    }
    std::lock_guard<std::mutex> lock(mu);
    st[size_t(c.rank())] = c.stats();
  });
  CHECK(st[0].modeled_seconds == doctest::Approx(5e-6 + double(bytes) / 0.05e9));
  CHECK(st[1].modeled_seconds == 0.0);
  double in_flight = double(received_ns - sent_ns) * double(std::chrono::steady_clock::period::num) /
                     double(std::chrono::steady_clock::period::den);
  CHECK(in_flight >= st[0].modeled_seconds);
}

TEST_CASE("comm/inproc: 1-bit halo exchange is charged ~25x less modeled time than fp32") {
  CommOptions o;
  o.link_model = true;
  o.link_preset = "ethernet25";
  const size_t rows = 16384, cols = 128;  // 8 MiB per message: bandwidth dominates latency
  std::mutex mu;
  double modeled[2] = {0, 0};
  uint64_t raw = 0, wire = 0;
  comm::run_inproc(2, o, [&](comm::Communicator& c) {
    std::vector<size_t> r(2, rows), f(2, rows * cols);
    std::vector<float> s(2 * rows * cols, 0.5f), out(s.size());
    for (size_t i = 0; i < s.size(); ++i) s[i] = float(i % 13);
    c.all_to_all_v<float>(s, f, out, f);
    double fp32 = c.stats().modeled_seconds;
    auto codec = quant::unbiased_codec(1);
    auto vol = comm::all_to_all_v_quantized(c, *codec, s.data(), r, out.data(), r, cols, 1);
    std::lock_guard<std::mutex> lock(mu);
    if (c.rank() == 0) {
      modeled[0] = fp32;
      modeled[1] = c.stats().modeled_seconds - fp32;
      raw = vol.raw_bytes;
      wire = vol.wire_bytes;
    }
  });
  CHECK(double(raw) / double(wire) == doctest::Approx(25.6));
  CHECK(modeled[0] / modeled[1] > 18.0);  // the 25 us latency per message keeps it below 25.6
}

TEST_CASE("comm/inproc: link_schedule decides which messages an urgent one overtakes on the link") {
  // Rank 0 posts bulk messages A then B (2 MiB each, ~420 ms at 0.005 GB/s), then U (512 KiB,
  // ~105 ms) at kPriorityUrgent. Rank 1 waits for U, then looks at A and B: fifo delivers U after
  // both; priority lets U pass B (queued) but not A (in transmission); preempt also interrupts A.
  // The margins are ~420 ms, so a loaded machine does not blur the order.
  struct Case {
    std::string schedule;
    bool a_before_u, b_before_u;
  };
  for (const Case& k : {Case{"fifo", true, true}, Case{"priority", true, false}, Case{"preempt", false, false}}) {
    CAPTURE(k.schedule);
    CommOptions o;
    o.link_model = true;
    o.link_sleep = true;
    o.link_bandwidth_gbps = 0.005;
    o.link_schedule = k.schedule;
    const size_t bytes = 2 << 20;
    bool a_ready = false, b_ready = false;
    comm::run_inproc(2, o, [&](comm::Communicator& c) {
      std::vector<uint8_t> a(bytes, 7), b(bytes, 8), u(bytes / 4, 9);
      if (c.rank() == 0) {
        c.isend(a.data(), a.size(), 1, 1);
        c.isend(b.data(), b.size(), 1, 2);
        c.set_priority(comm::kPriorityUrgent);
        c.isend(u.data(), u.size(), 1, 3);
        c.set_priority(comm::kPriorityNormal);
        c.barrier();
        return;
      }
      comm::Request ra = c.irecv(a.data(), a.size(), 0, 1), rb = c.irecv(b.data(), b.size(), 0, 2);
      c.recv(u.data(), u.size(), 0, 3);
      a_ready = ra.test();
      b_ready = rb.test();
      ra.wait();
      rb.wait();
      CHECK(u[0] == 9);
      c.barrier();
    });
    CHECK(a_ready == k.a_before_u);
    CHECK(b_ready == k.b_before_u);
  }
}
