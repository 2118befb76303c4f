// Every collective case on the inproc backend with 2, 3 and 4 ranks (and 1 as the degenerate case).
#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "core/comm/factory.hpp"
#include "tests/core/comm/collective_cases.hpp"

using namespace mlsys;

TEST_CASE("comm/inproc: every collective case on 1, 2, 3 and 4 ranks") {
  CommOptions opts;
  opts.timeout_s = 30;
  for (const auto& tc : test::collective_cases()) {
    for (int n : {1, 2, 3, 4}) {
      CAPTURE(tc.name);
      CAPTURE(n);
      CHECK_NOTHROW(comm::run_inproc(n, opts, tc.body));
    }
  }
}

TEST_CASE("comm/inproc: every collective case with a modeled link (all-reduce copies its chunks into messages)") {
  CommOptions opts;
  opts.timeout_s = 30;
  opts.link_model = true;  // not slept: only the modeled seconds are counted
  for (const auto& tc : test::collective_cases()) {
    for (int n : {2, 3, 4}) {
      CAPTURE(tc.name);
      CAPTURE(n);
      CHECK_NOTHROW(comm::run_inproc(n, opts, tc.body));
    }
  }
}

namespace {

// Every rank's f32 all-reduce result of `count` values (rank r's input: a fixed pseudo-random
// stream per rank, so rounding depends on the order of the sum).
std::vector<std::vector<float>> all_reduce_results(const CommOptions& opts, int n, size_t count, bool late_peers) {
  std::vector<std::vector<float>> out(static_cast<size_t>(n));
  comm::run_inproc(n, opts, [&](comm::Communicator& c) {
    std::vector<float> v(count);
    uint64_t x = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(c.rank() + 1);
    for (float& f : v) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      f = static_cast<float>(static_cast<double>(x % 2000003) / 7919.0 - 100.0);
    }
    comm::Request r = c.iall_reduce(v.data(), count, DType::f32, comm::ReduceOp::sum);
    // The peers finish late: rank 0's buffer must stay readable until they copied from it.
    if (late_peers && c.rank() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    r.wait();
    out[static_cast<size_t>(c.rank())] = v;
    if (c.rank() == 0) std::fill(v.begin(), v.end(), -1.0f);  // the caller's again: overwritten at once
  });
  return out;
}

}  // namespace

// Buffers of 256 KiB and more are reduced in place without a link model; smaller ones are copied.
TEST_CASE("comm/inproc: the in-place all-reduce gives the copying path's bits, and a rank's buffer is its own once it returns") {
  CommOptions in_place;
  in_place.timeout_s = 30;
  CommOptions copying = in_place;
  copying.link_model = true;
  for (int n : {2, 3, 4}) {
    for (size_t count : {size_t{0}, size_t{1001}, size_t{65536}, size_t{100003}}) {
      CAPTURE(n);
      CAPTURE(count);
      const auto a = all_reduce_results(in_place, n, count, true);
      const auto b = all_reduce_results(copying, n, count, false);
      for (int r = 0; r < n; ++r) {
        CAPTURE(r);
        CHECK(a[static_cast<size_t>(r)] == b[static_cast<size_t>(r)]);  // bitwise (no NaN in the inputs)
        CHECK(a[static_cast<size_t>(r)] == a[0]);
      }
    }
  }
}
