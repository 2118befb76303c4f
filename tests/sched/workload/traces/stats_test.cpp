// Trace statistics: hand-computed values on a tiny trace, tables, and the openb trace.
#include <doctest/doctest.h>

#include "sched/workload/traces/read_trace.hpp"
#include "sched/workload/traces/trace_stats.hpp"
#include "tests/common/svg_check.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;

namespace {
JobSpec job(double submit, double duration, int gpus, const char* vc, JobState st = JobState::Completed,
            int milli = 1000) {
  JobSpec j;
  j.submit_time = submit;
  j.duration = duration;
  j.num_gpus = gpus;
  j.vc = vc;
  j.state = st;
  j.gpu_milli = milli;
  return j;
}
}  // namespace

TEST_CASE("quantiles: type-7 interpolation") {
  auto q = quantiles({4, 1, 3, 2});
  CHECK(q.min == 1);
  CHECK(q.max == 4);
  CHECK(q.mean == 2.5);
  CHECK(q.p50 == 2.5);
  CHECK(q.p25 == doctest::Approx(1.75));
  CHECK(q.p90 == doctest::Approx(3.7));
  CHECK(quantiles({}).p50 == 0);
}

TEST_CASE("trace stats on a hand-computed trace") {
  std::vector<JobSpec> jobs{job(0, 3600, 1, "a"), job(1800, 7200, 8, "a"), job(3600, 1800, 2, "b", JobState::Failed),
                            job(7300, 360, 1, "b", JobState::Completed, 500), job(7400, 100, 0, "")};
  auto s = compute_trace_stats(jobs);
  CHECK(s.jobs == 5);
  CHECK(s.gpu_jobs == 4);
  CHECK(s.fractional_jobs == 1);
  // 1x1 h + 8x2 h + 2x0.5 h + 0.5x0.1 h = 18.05 GPU-hours
  CHECK(s.gpu_hours == doctest::Approx(18.05));
  CHECK(s.arrivals_by_hour == std::vector<int64_t>{2, 1, 2});
  CHECK(s.arrivals_per_hour == doctest::Approx(5 / (7400.0 / 3600)));
  CHECK(s.demand[0].jobs == 1);  // "0"
  CHECK(s.demand[1].jobs == 2);  // "1"
  CHECK(s.demand[2].jobs == 1);  // "2"
  CHECK(s.demand[4].jobs == 1);  // "5-8"
  CHECK(s.demand[4].gpu_hours == doctest::Approx(16));
  CHECK(s.duration_s.p50 == 1800);
  REQUIRE(s.by_vc.size() == 3);
  CHECK(s.by_vc[0].key == "(default)");
  CHECK(s.by_vc[1].key == "a");
  CHECK(s.by_vc[1].jobs == 2);
  CHECK(s.by_vc[1].gpu_hours == doctest::Approx(17));
  CHECK(s.by_vc[1].mean_gpus == 4.5);
  CHECK(s.by_vc[1].median_duration_s == 5400);
  REQUIRE(s.by_state.size() == 2);
  CHECK(s.by_state[0].key == "completed");
  CHECK(s.by_state[1].jobs == 1);
  auto tables = s.to_tables();
  REQUIRE(tables.size() == 6);
  CHECK(tables[0].first == "overview");
  CHECK(tables[0].second.rows() == 8);
  CHECK(tables[1].second.rows() == 9);
  CHECK(tables[3].second.rows() == 3);
  CHECK(tables[4].first == "by_vc");
  CHECK(tables[4].second.to_csv().find("a,2,17,4.5,5400") != std::string::npos);
  CHECK(s.to_json().find("gpu_hours")->as_number() == doctest::Approx(18.05));
}

TEST_CASE("trace stats: duration histogram (4 bins per decade) and its SVG charts") {
  // 0.5 s counts in the first bin; 3600 s: log10 = 3.556, x4 = 14.2 -> bin 14; 100 s -> bin 8 exactly.
  std::vector<JobSpec> jobs{job(0, 0.5, 1, "a"), job(10, 100, 1, "a"), job(20, 3600, 2, "b"), job(30, 3700, 4, "b")};
  auto s = compute_trace_stats(jobs);
  REQUIRE(s.duration_bins.size() == 15);
  CHECK(s.duration_bins[0] == 1);
  CHECK(s.duration_bins[8] == 1);
  CHECK(s.duration_bins[14] == 2);
  int64_t total = 0;
  for (auto n : s.duration_bins) total += n;
  CHECK(total == 4);
  auto svgs = s.to_svgs(FigureSize::kColumn);
  REQUIRE(svgs.size() == 4);
  CHECK(svgs[0].first == "demand.svg");
  CHECK(svgs[1].first == "durations.svg");
  CHECK(svgs[3].first == "vc_gpu_hours.svg");
  for (const auto& [name, svg] : svgs) {
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
  }
  // The per-VC bars are largest first, filled, labelled with the VC and carry their GPU-hours on
  // top; the old writer drew outlines at numeric x with the names in a legend.
  const std::string& vc = svgs[3].second;
  CHECK(vc.find(">b</text>") != std::string::npos);
  CHECK(vc.find(">b</text>") < vc.find(">a</text>"));
  CHECK(vc.find(">6.11</text>") != std::string::npos);  // 2 GPUs x 3600 s + 4 GPUs x 3700 s
  CHECK(vc.find("class=\"bar\"") != std::string::npos);
  CHECK(vc.find("<polyline") == std::string::npos);  // no outline bars
  const std::string& dem = svgs[0].second;
  for (const char* cls : {">1</text>", ">2</text>", ">3-4</text>"}) CHECK(dem.find(cls) != std::string::npos);
  CHECK(compute_trace_stats({}).to_svgs(FigureSize::kColumn).size() == 4);
  // Every chart at every size: nothing outside the picture; at column size 3.3 in and 8 pt.
  for (const auto& [size_name, size] : figure_sizes())
    for (const auto& [name, svg] : s.to_svgs(size)) {
      CAPTURE(size_name);
      CAPTURE(name);
      mlsys::test::check_unclipped(svg);
      const mlsys::test::Picture p = mlsys::test::picture(svg);
      if (size == FigureSize::kColumn) CHECK(p.w * p.points_per_unit == doctest::Approx(3.3 * 72));
      if (size == FigureSize::kColumn) CHECK(p.font * p.points_per_unit == doctest::Approx(8));
    }
}

TEST_CASE("trace stats of an empty trace") {
  auto s = compute_trace_stats({});
  CHECK(s.jobs == 0);
  CHECK(s.to_tables().size() == 6);
}

TEST_CASE("shared: openb stats (GPU-hours from fractional GPUs)") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TraceOptions o;
  o.path = (data / "traces/alibaba_openb_v2023/openb_pod_list_default.csv").string();
  auto t = read_trace(o);
  auto s = compute_trace_stats(t.jobs);
  CHECK(s.jobs == 8152);
  CHECK(s.gpu_jobs == 8152 - 1088);
  CHECK(s.fractional_jobs == 3078);
  CHECK(s.gpu_hours > 0);
}
