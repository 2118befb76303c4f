// The GBDT (XGBoost) duration estimator: online (no job sees a run that had not finished), learns
// the metadata -> duration relation, deterministic.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sched/workload/gbdt_estimator.hpp"

using namespace mlsys::workload;

namespace {

// Two kinds of jobs, alternating: "small" ones of 100 s on 1 GPU and "big" ones of 10,000 s on 8.
std::vector<JobSpec> two_kinds(int n) {
  std::vector<JobSpec> jobs;
  for (int i = 0; i < n; ++i) {
    JobSpec j;
    const bool big = i % 2 == 1;
    j.user = big ? "b" : "a";
    j.name = big ? "train_big" : "train_small";
    j.num_gpus = big ? 8 : 1;
    j.submit_time = 20000.0 * i;  // every earlier job has finished
    j.duration = big ? 10000 : 100;
    jobs.push_back(j);
  }
  return jobs;
}

}  // namespace

TEST_CASE("gbdt estimator: before min_history the history mean, then the model separates the kinds") {
  auto jobs = two_kinds(60);
  GbdtOptions o;
  o.min_history = 10;
  auto e = gbdt_estimates(jobs, o);
  REQUIRE(e.value.size() == jobs.size());
  CHECK(e.value[0] == o.default_s);              // nothing finished
  CHECK(e.value[1] == doctest::Approx(100));     // the mean of job 0
  CHECK(e.sources["gbdt"] > 0);
  for (size_t i = 40; i < jobs.size(); ++i) CHECK(std::abs(e.value[i] / jobs[i].duration - 1) < 0.1);
}

TEST_CASE("gbdt estimator: a run still going is in no history, same input, same estimates") {
  auto jobs = two_kinds(30);
  for (auto& j : jobs) j.submit_time = 0;  // nothing finishes before anything is submitted
  GbdtOptions o;
  auto e = gbdt_estimates(jobs, o);
  for (double v : e.value) CHECK(v == o.default_s);
  auto jobs2 = two_kinds(40);
  CHECK(gbdt_estimates(jobs2, o).value == gbdt_estimates(jobs2, o).value);
}
