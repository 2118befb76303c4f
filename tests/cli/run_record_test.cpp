// The run record through the real binary: the re-run line works as printed from any folder and
// never replaces the run it reproduces; failed runs log their error and leave a reusable folder.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_mlsys;
using mlsys::test::run_shell;
namespace fs = std::filesystem;

namespace {
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

std::string rerun_line(const fs::path& config) {
  std::string text = mlsys::test::read_text(config);
  auto at = text.find("# re-run with: ");
  REQUIRE(at != std::string::npos);
  auto end = text.find('\n', at);
  return text.substr(at + 15, end - at - 15);
}
}  // namespace

TEST_CASE("cli record: the re-run line works as printed, from another folder, into a new folder") {
  mlsys::test::TempDir dir("rerun");
  fs::create_directories(dir / "elsewhere");
  auto first = run_mlsys("simulate -q --seed 5 --out run1 --overwrite --set run.progress=off", dir.path().string());
  REQUIRE(first.exit_code == 0);
  std::string line = rerun_line(dir / "run1/config.yaml");
  CHECK(contains(line, (fs::absolute(dir.path()) / "run1/config.yaml").lexically_normal().string()));
  std::string before = mlsys::test::read_text(dir / "run1/summary.json");
  auto again = run_shell("cd '" + (dir / "elsewhere").string() + "' && " + line + " -q");
  CHECK_MESSAGE(again.exit_code == 0, again.err);
  // The re-run went to a fresh default folder and left the original run untouched.
  CHECK(mlsys::test::read_text(dir / "run1/summary.json") == before);
  REQUIRE(fs::exists(dir / "elsewhere/results/simulate"));
  fs::path rerun = fs::directory_iterator(dir / "elsewhere/results/simulate")->path();
  auto a = mlsys::Json::parse(before), b = mlsys::Json::parse(mlsys::test::read_text(rerun / "summary.json"));
  CHECK(a.find("simulation")->dump() == b.find("simulation")->dump());
  CHECK(b.find("run")->find("seed")->as_number() == 5);
}

TEST_CASE("cli record: summary.json records the command line, and version prints git sha and compiler") {
  mlsys::test::TempDir dir("record");
  auto r = run_mlsys("simulate -q --out '" + (dir / "r").string() + "'");
  REQUIRE(r.exit_code == 0);
  auto s = mlsys::Json::parse(mlsys::test::read_text(dir / "r/summary.json"));
  const auto& argv = s.find("run")->find("command_line")->as_array();
  REQUIRE(argv.size() == 5);
  CHECK(argv[1].as_string() == "simulate");
  CHECK(argv[4].as_string() == (dir / "r").string());
  auto v = run_mlsys("version");
  CHECK(contains(v.out, "git:"));
  CHECK((contains(v.out, "compiler: gcc") || contains(v.out, "compiler: clang")));
  CHECK(contains(v.out, s.find("run")->find("git_sha")->as_string()));
}

TEST_CASE("cli record: a failed run writes its error into run.log and its folder takes the re-run") {
  mlsys::test::TempDir dir("failed");
  std::string out = (dir / "run").string();
  auto bad = run_mlsys("simulate -q --out '" + out + "' --set trace.path=/nonexistent/trace.csv");
  CHECK(bad.exit_code == 2);  // a missing input the user named is bad usage
  CHECK(contains(mlsys::test::read_text(dir / "run/run.log"), "trace.path = '/nonexistent/trace.csv'"));
  CHECK_FALSE(fs::exists(dir / "run/summary.json"));
  auto good = run_mlsys("simulate -q --out '" + out + "'");
  CHECK_MESSAGE(good.exit_code == 0, good.err);
  CHECK(fs::exists(dir / "run/summary.json"));
}

TEST_CASE("cli record: an unset ${VAR} in --set or a file stops with exit 2 naming the variable") {
  auto e = run_shell("env -u MLSYS_TEST_NOT_SET " + std::string(MLSYS_BINARY) +
                     " config show simulate --set 'trace.path=${MLSYS_TEST_NOT_SET}/x.csv'");
  CHECK(e.exit_code == 2);
  CHECK(contains(e.err, "MLSYS_TEST_NOT_SET is not set"));
}

TEST_CASE("cli record: a seed above 2^53 round-trips exactly through config.yaml and summary.json") {
  mlsys::test::TempDir dir("seed");
  const std::string seed = "18446744073709551557";  // the largest 64-bit prime; doubles cannot hold it
  auto r = run_mlsys("simulate -q --seed " + seed + " --out '" + (dir / "r").string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(mlsys::test::read_text(dir / "r/config.yaml"), "seed: " + seed + "\n"));
  CHECK(contains(mlsys::test::read_text(dir / "r/summary.json"), "\"seed\": " + seed + ",\n"));
  auto s = mlsys::Json::parse(mlsys::test::read_text(dir / "r/summary.json"));
  CHECK(std::to_string(s.find("run")->find("seed")->as_uint()) == seed);
}
