// Trace generator: determinism, distribution sanity, bursty arrivals, file output readable back.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/util/error.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "sched/workload/traces/trace_stats.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;

namespace {
TracegenOptions builtin(int64_t jobs) {
  TracegenOptions o;
  o.jobs = jobs;
  o.runtimes_file = "builtin";
  return o;
}
// Variance of per-window arrival counts over mean: 1 for Poisson, larger for bursty.
double dispersion(const std::vector<JobSpec>& jobs, double window_s) {
  std::map<int64_t, double> counts;
  double end = jobs.back().submit_time;
  for (const auto& j : jobs) counts[static_cast<int64_t>(j.submit_time / window_s)] += 1;
  int64_t n = static_cast<int64_t>(end / window_s);
  double mean = 0, var = 0;
  for (int64_t w = 0; w < n; ++w) mean += counts[w];
  mean /= static_cast<double>(n);
  for (int64_t w = 0; w < n; ++w) var += (counts[w] - mean) * (counts[w] - mean);
  var /= static_cast<double>(n - 1);
  return var / mean;
}
}  // namespace

TEST_CASE("generator: same seed, same jobs, another seed differs") {
  auto o = builtin(2000);
  auto a = generate_trace(o, 7), b = generate_trace(o, 7), c = generate_trace(o, 8);
  REQUIRE(a.size() == 2000);
  bool same = true, differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    same = same && a[i].submit_time == b[i].submit_time && a[i].duration == b[i].duration &&
           a[i].num_gpus == b[i].num_gpus && a[i].user == b[i].user && a[i].name == b[i].name;
    differs = differs || a[i].duration != c[i].duration;
  }
  CHECK(same);
  CHECK(differs);
  // Byte-identical files.
  mlsys::test::TempDir dir("gen");
  generate_trace_file(o, 7, (dir / "a.csv").string());
  generate_trace_file(o, 7, (dir / "b.csv").string());
  CHECK(mlsys::test::read_text(dir / "a.csv") == mlsys::test::read_text(dir / "b.csv"));
}

TEST_CASE("generator: Poisson rate, Philly-like demand and durations (built-in fit)") {
  auto o = builtin(50000);
  o.rate_per_hour = 120;
  TraceGenerator g(o, 3);
  CHECK(g.duration_source() == "builtin-quantiles");
  auto jobs = generate_trace(o, 3);
  auto s = compute_trace_stats(jobs);
  CHECK(s.arrivals_per_hour == doctest::Approx(120).epsilon(0.03));
  // Philly/Gavel demand: 5709 of 8654 jobs use one GPU.
  CHECK(static_cast<double>(s.demand[1].jobs) / 50000 == doctest::Approx(5709.0 / 8654).epsilon(0.03));
  // Philly runtimes: median 1186 s, p90 12859 s (durations are whole seconds, at least 1).
  CHECK(s.duration_s.p50 == doctest::Approx(1186).epsilon(0.08));
  CHECK(s.duration_s.p90 == doctest::Approx(12859).epsilon(0.15));
  CHECK(s.duration_s.min >= 1);
  for (const auto& j : jobs) CHECK_MESSAGE(j.duration == std::round(j.duration), "whole seconds");
  CHECK(jobs.front().submit_time == 0);
  CHECK(std::is_sorted(jobs.begin(), jobs.end(),
                       [](const JobSpec& a, const JobSpec& b) { return a.submit_time < b.submit_time; }));
  CHECK(dispersion(jobs, 3600) == doctest::Approx(1).epsilon(0.25));
}

TEST_CASE("generator: bursty arrivals keep the mean rate but cluster in time") {
  auto o = builtin(50000);
  o.arrival = "bursty";
  o.rate_per_hour = 120;
  o.burst_factor = 4;
  auto jobs = generate_trace(o, 5);
  auto s = compute_trace_stats(jobs);
  CHECK(s.arrivals_per_hour == doctest::Approx(120).epsilon(0.15));
  CHECK(dispersion(jobs, 3600) > 5);
}

TEST_CASE("generator: given distributions, states, lognormal") {
  auto o = builtin(20000);
  o.gpu_values = {2, 8};
  o.gpu_weights = {3, 1};
  o.duration = "lognormal";
  o.lognormal_mu = std::log(600.0);
  o.lognormal_sigma = 0.5;
  o.max_duration_s = 1000;
  o.failed_fraction = 0.2;
  o.users = 5;
  o.vcs = 2;
  auto jobs = generate_trace(o, 11);
  int64_t twos = 0, failed = 0;
  std::vector<double> d;
  for (const auto& j : jobs) {
    CHECK((j.num_gpus == 2 || j.num_gpus == 8));
    twos += j.num_gpus == 2;
    failed += j.state == JobState::Failed;
    CHECK(j.duration <= 1000);
    CHECK((j.vc == "vc0" || j.vc == "vc1"));
    d.push_back(j.duration);
  }
  CHECK(static_cast<double>(twos) / 20000 == doctest::Approx(0.75).epsilon(0.03));
  CHECK(static_cast<double>(failed) / 20000 == doctest::Approx(0.2).epsilon(0.06));
  CHECK(quantiles(d).p50 == doctest::Approx(600).epsilon(0.03));
  o.gpu_weights = {1};
  CHECK_THROWS_AS(generate_trace(o, 1), ConfigError);
}

TEST_CASE("generator: empirical durations from the runtimes file") {
  mlsys::test::TempDir dir("rt");
  std::string runtimes = "runtime\n";
  for (int i = 1; i <= 100; ++i) runtimes += std::to_string(i * 10) + ".0\n";
  mlsys::test::write_text(dir / "runtimes.csv", runtimes);
  auto o = builtin(20000);
  o.runtimes_file = (dir / "runtimes.csv").string();
  TraceGenerator g(o, 1);
  CHECK(g.duration_source() == "file:" + o.runtimes_file);
  auto jobs = generate_trace(o, 1);
  std::vector<double> d;
  for (const auto& j : jobs) d.push_back(j.duration);
  auto q = quantiles(d);
  CHECK(q.min >= 10);
  CHECK(q.max <= 1000);
  CHECK(q.p50 == doctest::Approx(505).epsilon(0.04));
  mlsys::test::write_text(dir / "bad.csv", "runtime\n5\nabc\n");
  o.runtimes_file = (dir / "bad.csv").string();
  CHECK_THROWS_AS(TraceGenerator(o, 1), InputError);
}

TEST_CASE("generator: the written native CSV reads back identically") {
  auto o = builtin(500);
  mlsys::test::TempDir dir("genrt");
  auto path = (dir / "t.csv").string();
  CHECK(generate_trace_file(o, 9, path) == 500);
  auto jobs = generate_trace(o, 9);
  TraceOptions t;
  t.path = path;
  auto back = read_trace(t);
  REQUIRE(back.jobs.size() == jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    CHECK(back.jobs[i].id == jobs[i].id);
    CHECK(back.jobs[i].submit_time == jobs[i].submit_time);
    CHECK(back.jobs[i].duration == jobs[i].duration);
    CHECK(back.jobs[i].num_gpus == jobs[i].num_gpus);
    CHECK(back.jobs[i].name == jobs[i].name);
  }
}

TEST_CASE("shared: empirical model uses philly_runtimes.csv and matches its quantiles") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TracegenOptions o;
  o.jobs = 50000;
  TraceGenerator g(o, 2);
  CHECK(g.duration_source().find("philly_runtimes.csv") != std::string::npos);
  auto s = compute_trace_stats(generate_trace(o, 2));
  CHECK(s.duration_s.p50 == doctest::Approx(1186).epsilon(0.08));
  CHECK(s.duration_s.p25 == doctest::Approx(131).epsilon(0.1));
}

TEST_CASE("load_or_generate: generated when no trace path is given, with the trace filters") {
  TraceOptions t;
  t.min_gpus = 2;
  auto g = builtin(1000);
  auto a = load_or_generate(t, g, 4);
  CHECK(a.summary.formats == std::vector<std::string>{"tracegen"});
  CHECK(a.summary.rows_read == 1000);
  CHECK(a.jobs.size() + static_cast<size_t>(a.summary.filtered_out) == 1000);
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    CHECK(a.jobs[i].num_gpus >= 2);
    CHECK(a.jobs[i].index == static_cast<int64_t>(i));
  }
  t.path = (mlsys::test::source_dir() / "tests/sched/workload/traces/fixtures/tiresias_jobs.csv").string();
  CHECK(load_or_generate(t, g, 4).jobs.size() == 2);  // the file, filtered to >= 2 GPUs
}
