// Duration accuracy: cold starts (no finished run of the same job in the history) are reported
// apart from warm jobs, in every group and overall.
#include <doctest/doctest.h>

#include "sched/schedmate/eval/duration_eval.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;

namespace {
AdvisedJob run(const std::string& id, const std::string& user, const std::string& name, double submit, double duration) {
  return AdvisedJob{.id = id, .user = user, .name = name, .vc = "", .text = {}, .facts = {}, .submit_time = submit, .duration = duration};
}

double cell(const Table& t, const std::string& row, const std::string& column) {
  size_t col = 0;
  while (col < t.columns().size() && t.columns()[col] != column) ++col;
  REQUIRE(col < t.columns().size());
  for (size_t r = 0; r < t.rows(); ++r)
    if (std::get<std::string>(t.row(r)[0]) == row) {
      const auto& c = t.row(r)[col];
      return std::holds_alternative<double>(c) ? std::get<double>(c) : static_cast<double>(std::get<int64_t>(c));
    }
  FAIL("no row " << row);
  return 0;
}
}  // namespace

TEST_CASE("duration accuracy: a job is cold until a run of the same user and name has finished") {
  const std::vector<AdvisedJob> jobs = {
      run("v1/a/0", "org", "sys/bert", 0, 100),    // first run: cold
      run("v1/a/1", "org", "sys/bert", 50, 100),   // a:0 still running at 50 (finishes at 100): cold
      run("v1/a/2", "org", "sys/bert", 100, 100),  // a:0 finished at 100, at its submit: warm
      run("v1/b/0", "org", "sys/ssd", 120, 10),    // another benchmark of the same system: cold
      run("v1/c/0", "other", "sys/bert", 300, 10), // the same name from another submitter: cold
  };
  const std::vector<bool> cold = cold_starts(jobs);
  CHECK(cold == std::vector<bool>{true, true, false, true, true});

  // Predictions exact on the warm job only: the split shows where the accuracy comes from.
  OnlineResult r;
  for (size_t i = 0; i < jobs.size(); ++i) {
    Prediction p;
    p.duration_s = cold[i] ? jobs[i].duration * 3 : jobs[i].duration;
    r.schedmate.push_back(p);
    r.helios.push_back(jobs[i].duration * 3);
  }
  const Table t = accuracy_table(jobs, r, group_of("id_prefix"));
  CHECK(cell(t, "v1", "jobs") == 5);
  CHECK(cell(t, "v1 cold", "jobs") == 4);
  CHECK(cell(t, "v1 warm", "jobs") == 1);
  CHECK(cell(t, "ALL cold", "schedmate_within_50pct") == 0.0);
  CHECK(cell(t, "ALL warm", "schedmate_within_10pct") == 1.0);
  CHECK(cell(t, "ALL", "schedmate_within_10pct") == doctest::Approx(0.2));
  CHECK(cell(t, "ALL warm", "helios_median_ape") == doctest::Approx(2.0));
}

TEST_CASE("duration accuracy: report_groups scores only the named groups, with cold starts from the whole history") {
  const std::vector<AdvisedJob> jobs = {
      run("v1/a/0", "org", "sys/bert", 0, 100),    // v1, cold
      run("v2/a/0", "org", "sys/bert", 150, 100),  // v2, warm: v1/a/0 finished at 100
      run("v2/b/0", "org", "sys/ssd", 160, 10),    // v2, cold
  };
  OnlineResult r;
  for (const auto& j : jobs) {
    Prediction p;
    p.duration_s = j.duration;
    r.schedmate.push_back(p);
    r.helios.push_back(j.duration * 3);
  }
  const auto group = group_of("id_prefix");
  const Table t = accuracy_table(jobs, r, group, {"v2"});
  CHECK(cell(t, "ALL", "jobs") == 2);
  CHECK(cell(t, "ALL warm", "jobs") == 1);  // warm by the v1 run, which is not scored
  CHECK(cell(t, "v2 cold", "jobs") == 1);
  for (size_t i = 0; i < t.rows(); ++i) CHECK(std::get<std::string>(t.row(i)[0]).rfind("v1", 0) != 0);
  const auto idx = reported_jobs(jobs, group, {"v2"}, "schedmate.evaluate.report_groups");
  CHECK(idx == std::vector<size_t>{1, 2});
  CHECK(select(r, idx).helios == std::vector<double>{300, 30});
  CHECK(reported_jobs(jobs, group, {}, "k").size() == 3);
  CHECK_THROWS_WITH(reported_jobs(jobs, group, {"v3"}, "schedmate.evaluate.report_groups"),
                    doctest::Contains("schedmate.evaluate.report_groups"));
}
