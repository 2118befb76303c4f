// SIGTERM (what SLURM, Kubernetes and `timeout` send) through the real binary: every command exits
// with the one interrupted code, 130, and its summary.json says the results are partial.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_shell;
namespace fs = std::filesystem;

namespace {
const std::string kBin = MLSYS_BINARY;

mlsys::Json summary(const fs::path& dir) { return mlsys::Json::parse(mlsys::test::read_text(dir / "summary.json")); }
}  // namespace

TEST_CASE("cli signals: SIGTERM stops train-gnn at an epoch boundary with a checkpoint, exit 130, partial") {
  mlsys::test::TempDir dir("sigterm");
  auto r = run_shell("timeout --preserve-status -s TERM 2 " + kBin + " train-gnn -q --set run.progress=off " +
                     "--set gnn.epochs=1000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  REQUIRE(fs::exists(dir / "run/summary.json"));
  auto s = summary(dir / "run");
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  CHECK(s.find("run")->find("partial")->as_bool());
  CHECK(fs::exists(dir / "run/checkpoint.bin"));
  CHECK(fs::exists(dir / "run/epochs.csv"));
}

TEST_CASE("cli signals: SIGTERM stops a long simulation with exit 130 and a partial summary") {
  mlsys::test::TempDir dir("sigterm");
  auto r = run_shell("timeout --preserve-status -s TERM 1.0 " + kBin + " simulate -q --set run.progress=off " +
                     "--set tracegen.jobs=2000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  REQUIRE(fs::exists(dir / "run/summary.json"));
  auto s = summary(dir / "run");
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  CHECK(s.find("run")->find("partial")->as_bool());
  // An interrupted run holds partial results: a re-run into it needs --overwrite.
  auto again = mlsys::test::run_mlsys("simulate -q --out '" + (dir / "run").string() + "'");
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("already holds an interrupted run") != std::string::npos);
}

TEST_CASE("cli signals: SIGINT is the same stop as SIGTERM") {
  mlsys::test::TempDir dir("sigint");
  auto r = run_shell("timeout --preserve-status -s INT 2 " + kBin + " train-gnn -q --set run.progress=off " +
                     "--set gnn.epochs=1000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  CHECK(summary(dir / "run").find("run")->find("status")->as_string() == "interrupted");
}
