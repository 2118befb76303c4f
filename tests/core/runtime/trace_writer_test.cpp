#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "core/comm/factory.hpp"
#include "core/runtime/trace_writer.hpp"
#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

TEST_CASE("trace writer: Chrome trace JSON parses back with spans, instants and counters") {
  TraceWriter tw;
  tw.name_track(0, 1, "worker 0", "compute \"main\"");
  tw.span(0, 1, "forward", 10.0, 5.5, "compute");
  tw.span(0, 2, "halo exchange", 12.0, 8.0, "comm");
  tw.instant(0, 1, "epoch end", 20.0);
  tw.counter(0, "wire bytes", 20.0, 12345);
  test::TempDir dir("trace");
  tw.write((dir / "trace.json").string());
  Json j = Json::parse(test::read_text(dir / "trace.json"));
  const auto& ev = j.find("traceEvents")->as_array();
  REQUIRE(ev.size() == 6);
  int spans = 0, counters = 0, instants = 0, meta = 0;
  for (const auto& e : ev) {
    std::string ph = e.find("ph")->as_string();
    CHECK(e.contains("pid"));
    if (ph == "X") {
      ++spans;
      CHECK(e.find("dur")->as_number() > 0);
    } else if (ph == "C") {
      ++counters;
      CHECK(e.find("args")->find("value")->as_number() == 12345);
    } else if (ph == "i") {
      ++instants;
    } else if (ph == "M") {
      ++meta;
    }
  }
  CHECK(spans == 2);
  CHECK(counters == 1);
  CHECK(instants == 1);
  CHECK(meta == 2);
  CHECK(ev[1].find("args")->find("name")->as_string() == "compute \"main\"");
}

TEST_CASE("trace: ranks align their clocks at a barrier and gather one trace at the root") {
  mlsys::CommOptions o;
  o.world_size = 3;
  mlsys::TraceWriter root_trace;
  std::vector<double> origins(3);
  mlsys::comm::run_inproc(3, o, [&](mlsys::comm::Communicator& c) {
    // Ranks start at different moments, as processes do: 250 ms apart, so clocks that were not
    // aligned would differ by 500 ms, far outside the barrier's release jitter on a loaded machine
    // (which passed 5 ms with 5 ms steps, and 50 ms with 100 ms steps at load 20 on 2 cores).
    std::this_thread::sleep_for(std::chrono::milliseconds(250 * c.rank()));
    mlsys::TraceWriter local;
    mlsys::TraceWriter& t = c.rank() == 0 ? root_trace : local;
    t.name_track(c.rank(), 0, "rank " + std::to_string(c.rank()), "main");
    t.span(c.rank(), 0, "work", 10.0 * c.rank(), 5);
    mlsys::align_trace_clock(c);
    origins[static_cast<size_t>(c.rank())] = mlsys::trace_origin_us();
    t.gather(c, 0);
    if (c.rank() != 0) CHECK(t.size() == 3);  // the others keep their own events
  });
  // One process here, so the aligned origins are the same moment within the barrier's release.
  CHECK(std::abs(origins[0] - origins[2]) < 200000);
  CHECK(mlsys::trace_clock_us() >= 0);
  auto j = mlsys::Json::parse(root_trace.to_json());
  int spans[3] = {0, 0, 0};
  for (const auto& e : j.find("traceEvents")->as_array())
    if (e.find("ph")->as_string() == "X") spans[e.find("pid")->as_int()]++;
  CHECK(spans[0] == 1);
  CHECK(spans[1] == 1);
  CHECK(spans[2] == 1);
  CHECK(root_trace.size() == 9);
}
