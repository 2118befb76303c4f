// A sweep's per-configuration fingerprint (core/sweep/sweep_plan_record.hpp): resolved config
// hash plus the run record's input hashes; what changed is named, a missing record is never taken
// for a match. (Whole sweeps replaying an edit: tests/cli/sweep_test.cpp.)
#include <doctest/doctest.h>

#include "core/config/resolve.hpp"
#include "core/runtime/run_options.hpp"
#include "core/sweep/sweep_plan_record.hpp"
#include "core/io/hash.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

namespace {
// A finished run's folder as a child leaves it: summary.json whose run record hashed `input`.
void fake_run(const fs::path& folder, const fs::path& input) {
  Json inputs = Json::object();
  inputs["trace"] = Json::object();
  inputs["trace"]["path"] = input.string();
  inputs["trace"][kContentHashName] = digest_path(input).hash;
  inputs["generator"] = Json::object();
  inputs["generator"]["path"] = "builtin";
  Json summary = Json::object();
  summary["run"] = Json::object();
  summary["run"]["inputs"] = inputs;
  test::write_text(folder / "summary.json", summary.dump(2));
}
}  // namespace

TEST_CASE("sweep plan record: unchanged, config changed, input changed, both, none recorded") {
  test::TempDir dir("plan");
  const fs::path run = dir / "runs/0000";
  test::write_text(dir / "trace.csv", "id,submit\n1,0\n");
  fake_run(run, dir / "trace.csv");
  InputDigests fresh;
  CHECK(sweep_plan_change(run, "aaa", fresh) == "no recorded plan");
  record_sweep_plan(run, "aaa");
  CHECK(fs::exists(run / kSweepPlanFile));
  InputDigests d1;
  CHECK(sweep_plan_change(run, "aaa", d1) == "");
  CHECK(sweep_plan_change(run, "bbb", d1) == "config");
  // The same bytes rewritten keep the hash; other bytes do not (a new sweep hashes afresh).
  test::write_text(dir / "trace.csv", "id,submit\n1,0\n");
  InputDigests d2;
  CHECK(sweep_plan_change(run, "aaa", d2) == "");
  test::write_text(dir / "trace.csv", "id,submit\n1,5\n");
  InputDigests d3;
  CHECK(sweep_plan_change(run, "aaa", d3) == "inputs");
  CHECK(sweep_plan_change(run, "bbb", d3) == "config, inputs");
  fs::remove(dir / "trace.csv");
  InputDigests d4;
  CHECK(sweep_plan_change(run, "aaa", d4) == "inputs");
  forget_sweep_plan(run);
  CHECK_FALSE(fs::exists(run / kSweepPlanFile));
  CHECK(sweep_plan_change(run, "aaa", d4) == "no recorded plan");
  // A run that left no summary gets no record.
  record_sweep_plan(dir / "runs/0001", "aaa");
  CHECK_FALSE(fs::exists(dir / "runs/0001" / kSweepPlanFile));
}

TEST_CASE("sweep plan record: the config text leaves out execution settings, keeps what changes a result") {
  auto text = [](std::vector<std::string> sets) {
    return sweep_config_text(config::resolve({&run_section()}, {}, sets));
  };
  const std::string base = text({"run.seed=3"});
  CHECK(text({"run.seed=3", "run.threads=8", "run.out_dir=/x/runs/0001", "run.overwrite=true", "run.log_level=warn",
              "run.progress=off"}) == base);
  CHECK(text({"run.seed=4"}) != base);
}
