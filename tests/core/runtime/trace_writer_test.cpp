#include <doctest/doctest.h>

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
