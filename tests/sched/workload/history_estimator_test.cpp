// The Helios-style history estimator on hand-computed tiny traces.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sched/workload/history_estimator.hpp"

using namespace mlsys::workload;

namespace {

JobSpec job(const std::string& user, const std::string& name, double submit, double duration) {
  JobSpec j;
  j.user = user;
  j.name = name;
  j.submit_time = submit;
  j.duration = duration;
  return j;
}

}  // namespace

TEST_CASE("history estimator: user+name, then similar names (stems), then user, then all, online") {
  std::vector<JobSpec> jobs = {
      job("u", "bert-1", 0, 100),     // 0: nothing finished yet -> default
      job("u", "bert-1", 50, 300),    // 1: job 0 still running at 50 -> default
      job("u", "bert-1", 100, 10),    // 2: job 0 finished at 100 -> user+name = 100
      // At 400 jobs 0-2 (100, 300, 10 s) have finished, all u's "bert-1", mean 410 / 3:
      job("u", "bert_7", 400, 10),    // 3: u's jobs of the same stem "bert"
      job("v", "bert.2", 400, 10),    // 4: any user's jobs of the stem "bert"
      job("u", "gpt", 400, 10),       // 5: u's jobs
      job("w", "x", 400, 10),         // 6: all jobs
  };
  auto e = helios_estimates(jobs, 3600);
  REQUIRE(e.value.size() == jobs.size());
  CHECK(e.value[0] == 3600);
  CHECK(e.value[1] == 3600);
  CHECK(e.value[2] == 100);
  CHECK(e.value[3] == doctest::Approx(410.0 / 3));
  CHECK(e.value[4] == doctest::Approx(410.0 / 3));
  CHECK(e.value[5] == doctest::Approx(410.0 / 3));
  CHECK(e.value[6] == doctest::Approx(410.0 / 3));
  CHECK(e.sources.at("default") == 2);
  CHECK(e.sources.at("user+name") == 1);
  CHECK(e.sources.at("user+similar name") == 1);
  CHECK(e.sources.at("similar name") == 1);
  CHECK(e.sources.at("user") == 1);
  CHECK(e.sources.at("all jobs") == 1);
}

TEST_CASE("history estimator: a job of unknown duration never enters the history, input order is free") {
  std::vector<JobSpec> jobs = {job("u", "a", 10, 5), job("u", "a", 0, NAN), job("u", "a", 20, 5)};
  auto e = helios_estimates(jobs, 7);
  CHECK(e.value[1] == 7);  // submitted first
  CHECK(e.value[0] == 7);  // the NaN job does not count
  CHECK(e.value[2] == 5);  // job 0 ended at 15
}
