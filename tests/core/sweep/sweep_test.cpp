// The sweep plan and the merged table (the runs themselves are replayed in tests/cli/sweep_test.cpp).
#include <doctest/doctest.h>

#include "core/config/resolve.hpp"
#include "core/sweep/sweep.hpp"
#include "core/util/error.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

namespace {
SweepPlan plan_of(const std::string& yaml, const fs::path& dir) {
  test::write_text(dir / "sweep.yaml", yaml);
  auto cfg = config::resolve({&sweep_section()}, {(dir / "sweep.yaml").string()}, {});
  return make_sweep_plan(cfg.get(sweep_section()), dir);
}
}  // namespace

TEST_CASE("sweep plan: configs x grid x seeds in a fixed order, last grid key fastest, seeds innermost") {
  test::TempDir dir("sweep");
  auto plan = plan_of("sweep:\n  command: simulate\n  configs: [a.yaml, sub/b.yaml]\n  seeds: [1, 2]\n"
                      "  grid:\n    sim.policy: [fifo, sjf]\n    sim.load_factor: [1, 2, 3]\n  set: [tracegen.jobs=10]\n",
                      dir.path());
  REQUIRE(plan.points.size() == 2 * 2 * 3 * 2);
  CHECK(plan.grid_keys == std::vector<std::string>{"sim.policy", "sim.load_factor"});
  const auto& p0 = plan.points[0];
  CHECK(p0.config == "a.yaml");
  CHECK(p0.config_path == (fs::absolute(dir.path()) / "a.yaml").lexically_normal().string());
  CHECK(p0.seed == 1);
  CHECK(p0.sets[1].second == "1");
  CHECK(plan.points[1].seed == 2);
  CHECK(plan.points[2].sets[1].second == "2");  // last grid key next
  CHECK(plan.points[6].sets[0].second == "sjf");
  CHECK(plan.points[12].config == "sub/b.yaml");
  CHECK(plan.points[23].folder == "runs/0023");
  auto args = plan.child_args(plan.points[3], "/o", true);
  std::vector<std::string> expect{"simulate", p0.config_path, "--set", "tracegen.jobs=10", "--set",
                                  "sim.policy=fifo", "--set", "sim.load_factor=2", "--seed", "2",
                                  "--set", "run.threads=1", "--set", "run.progress=off", "-q", "--out",
                                  "/o/runs/0003", "--overwrite"};
  CHECK(args == expect);
}

TEST_CASE("sweep plan: defaults, list values as YAML, and malformed grids") {
  test::TempDir dir("sweep");
  auto plan = plan_of("sweep:\n  command: coopt\n  grid:\n    x.list: [[1, 2], [3]]\n", dir.path());
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].config == "default");
  CHECK_FALSE(plan.points[0].has_seed);
  CHECK(plan.points[0].sets[0].second == "[1, 2]");
  CHECK_THROWS_WITH_AS(plan_of("sweep:\n  grid:\n    a: [1]\n", dir.path()), doctest::Contains("sweep.command is required"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(plan_of("sweep:\n  command: x\n  grid: [1, 2]\n", dir.path()),
                       doctest::Contains("must map config keys"), ConfigError);
  CHECK_THROWS_WITH_AS(plan_of("sweep:\n  command: x\n  grid:\n    a: []\n", dir.path()), doctest::Contains("has no values"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(plan_of("sweep:\n  command: x\n  set: [novalue]\n", dir.path()), doctest::Contains("key=value"),
                       ConfigError);
}

TEST_CASE("sweep merge: one row per configuration, run record and resources left out, folder paths as <run>") {
  test::TempDir dir("sweep");
  auto plan = plan_of("sweep:\n  command: simulate\n  seeds: [1, 2]\n", dir.path());
  fs::path out = dir / "out";
  std::string folder0 = fs::absolute(out / "runs/0000").lexically_normal().string();
  std::vector<SweepResult> results(2);
  results[0].index = 0;
  results[0].status = "complete";
  results[0].payload = R"({"sim":{"jobs":10,"jct":1.5,"where":")" + folder0 +
                       R"(/jobs.csv"},"ok":true,"run":{"host":"x"},"resources":{"wall_seconds":3}})";
  results[1].index = 1;
  results[1].status = "failed";
  Table t = merge_sweep(plan, results, out);
  CHECK(t.to_csv() ==
        "index,config,seed,status,sim.jobs,sim.jct,sim.where,ok\n"
        "0,default,1,complete,10,1.5,<run>/jobs.csv,true\n"
        "1,default,2,failed,,,,\n");
}

TEST_CASE("sweep merge: CSV tables concatenate with the coordinates in front") {
  test::TempDir dir("sweep");
  auto plan = plan_of("sweep:\n  command: simulate\n  table: summary.csv\n  grid:\n    sim.policy: [fifo, sjf]\n",
                      dir.path());
  std::vector<SweepResult> results(2);
  results[0] = {0, "complete", 0, "policy,seed,jct\nfifo,1,\"1,5\"\nfifo,2,2\n"};
  results[1] = {1, "complete", 0, "policy,seed,jct\nsjf,1,3\n"};
  Table t = merge_sweep(plan, results, dir / "out");
  CHECK(t.to_csv() ==
        "index,config,seed,sim.policy,status,policy,result.seed,jct\n"
        "0,default,,fifo,complete,fifo,1,\"1,5\"\n"
        "0,default,,fifo,complete,fifo,2,2\n"
        "1,default,,sjf,complete,sjf,1,3\n");
}

TEST_CASE("sweep plan: a grid too large is refused with its count before anything is built") {
  // 10 keys x 10 values = 10^10 configurations: the plan used to be built in memory (18 GB and
  // rising after a minute) instead of being refused.
  test::TempDir dir("sweep_big");
  std::string yaml = "sweep:\n  command: simulate\n  grid:\n";
  for (int k = 0; k < 10; ++k) yaml += "    key" + std::to_string(k) + ": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
  try {
    plan_of(yaml, dir.path());
    FAIL("a 10^10-configuration sweep was accepted");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("1e+10 configurations") != std::string::npos);
    CHECK(what.find("sweep.max_runs = 100000") != std::string::npos);
    CHECK(what.find("x 10 key9") != std::string::npos);
  }
  // The cap is a setting: 2 x 3 seeds pass under 6 and fail under 5.
  const std::string small = "sweep:\n  command: simulate\n  seeds: [1, 2, 3]\n  grid:\n    sim.policy: [fifo, sjf]\n";
  CHECK(plan_of(small + "  max_runs: 6\n", dir.path()).points.size() == 6);
  CHECK_THROWS_AS(plan_of(small + "  max_runs: 5\n", dir.path()), ConfigError);
}
