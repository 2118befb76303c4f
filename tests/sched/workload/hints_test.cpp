// The hints file, the contract between SchedMate and the schedulers: written through Table, read
// through the project's CSV reader, so every job id reads back as written.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/util/error.hpp"
#include "sched/workload/hints.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;

TEST_CASE("hints round-trip: ids with commas, quotes and spaces, every failure action, unknown uncertainty") {
  const std::vector<Hint> written = {
      {"plain", 3600, 5400, FailureAction::None},
      {"with,comma", 12.5, 1, FailureAction::Resubmit},
      {"with \"quote\"", 0, 0, FailureAction::ResubmitExcludeNode},
      {"\"", 7, 2, FailureAction::ResubmitMoreMemory},
      {"both, \"of\" them", 1e6, NAN, FailureAction::DoNotRetry},
  };
  test::TempDir dir("hints");
  const auto path = (dir / "hints.csv").string();
  hints_table(written).write_csv(path);
  CHECK(test::read_text(path).rfind("job_id,predicted_duration_s,uncertainty_s,failure_action\n", 0) == 0);
  auto read = read_hints(path);
  REQUIRE(read.size() == written.size());
  for (const auto& w : written) {
    auto it = read.find(w.job_id);
    REQUIRE_MESSAGE(it != read.end(), w.job_id);
    CHECK(it->second.job_id == w.job_id);
    CHECK(it->second.duration_s == w.duration_s);
    CHECK(it->second.action == w.action);
    if (std::isnan(w.uncertainty_s)) CHECK(std::isnan(it->second.uncertainty_s));
    else CHECK(it->second.uncertainty_s == w.uncertainty_s);
  }
}

TEST_CASE("hints: columns by name, optional uncertainty and action, later rows win") {
  test::TempDir dir("hints");
  test::write_text(dir / "h.csv", "predicted_duration_s,job_id\n5,a\n6,b\n7,a\n");
  auto h = read_hints((dir / "h.csv").string());
  REQUIRE(h.size() == 2);
  CHECK(h.at("a").duration_s == 7);
  CHECK(h.at("a").action == FailureAction::None);
  CHECK(std::isnan(h.at("b").uncertainty_s));
}

TEST_CASE("hints: bad files are input errors naming file, line and column") {
  test::TempDir dir("hints");
  auto bad = [&](const std::string& text, const std::string& want) {
    test::write_text(dir / "bad.csv", text);
    CHECK_THROWS_WITH_AS(read_hints((dir / "bad.csv").string()), doctest::Contains(want.c_str()), InputError);
  };
  const std::string head = "job_id,predicted_duration_s,uncertainty_s,failure_action\n";
  bad(head + "a,5,1,explode\n", "bad.csv:2:4: failure_action = 'explode'; valid: (empty), resubmit,");
  bad(head + "a,soon,1,\n", "bad.csv:2:2: field 'predicted_duration_s' = 'soon': not a number");
  bad(head + "a,-1,1,\n", "bad.csv:2:2: field 'predicted_duration_s' = '-1': too small (expected a finite number from 0 to");
  bad(head + "a,5,-2,\n", "bad.csv:2:3: field 'uncertainty_s' = '-2'");
  bad(head + "\"a,5,1,\n", "bad.csv:2: unclosed quote");
  bad("id,predicted_duration_s\n", "missing column 'job_id'");
  bad("", "empty file");
}
