// Output folders through the real binary (#16.5): concurrent runs into one folder, default names
// started together, folders of other files, --overwrite. Fixtures are made at test time.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_mlsys;
using mlsys::test::run_shell;
namespace fs = std::filesystem;

namespace {
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
const std::string kBin = MLSYS_BINARY;
}  // namespace

TEST_CASE("cli folders: a run into a folder another run holds fails fast with a clear error") {
  mlsys::test::TempDir dir("lock");
  fs::create_directories(dir / "run");
  // flock(1) holds the folder's lock the way a running mlsys does.
  auto r = run_shell("flock '" + (dir / "run/.mlsys-lock").string() + "' " + kBin + " simulate -q --out '" +
                     (dir / "run").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "is in use by another mlsys run"));
  CHECK_FALSE(fs::exists(dir / "run/summary.json"));
}

TEST_CASE("cli folders: runs started together into one folder: exactly one succeeds, the rest exit 2") {
  mlsys::test::TempDir dir("race");
  std::string out = (dir / "run").string();
  std::string script;
  for (int i = 0; i < 6; ++i)
    script += "(" + kBin + " simulate -q --set run.progress=off --out '" + out + "'; echo rc=$? >> '" +
              (dir / "codes").string() + "') 2>>'" + (dir / "errors").string() + "' & ";
  auto r = run_shell(script + "wait");
  REQUIRE(r.exit_code == 0);
  std::string codes = mlsys::test::read_text(dir / "codes");
  int ok = 0, refused = 0;
  for (size_t at = 0; (at = codes.find("rc=", at)) != std::string::npos; at += 3) {
    ok += codes.compare(at, 4, "rc=0") == 0;
    refused += codes.compare(at, 4, "rc=2") == 0;
  }
  CHECK(ok == 1);
  CHECK(refused == 5);
  std::string errors = mlsys::test::read_text(dir / "errors");
  CHECK((contains(errors, "in use by another mlsys run") || contains(errors, "already holds a complete run")));
  CHECK_NOTHROW(mlsys::Json::parse(mlsys::test::read_text(dir / "run/summary.json")));
}

TEST_CASE("cli folders: runs started together without --out get distinct folders") {
  mlsys::test::TempDir dir("names");
  std::string script = "cd '" + dir.path().string() + "' && { ";
  for (int i = 0; i < 6; ++i) script += kBin + " simulate -q --set run.progress=off & ";
  auto r = run_shell(script + "wait; }");
  REQUIRE(r.exit_code == 0);
  std::set<std::string> folders;
  for (auto& e : fs::directory_iterator(dir / "results/simulate"))
    if (fs::exists(e.path() / "summary.json")) folders.insert(e.path().filename().string());
  CHECK(folders.size() == 6);
}

TEST_CASE("cli folders: a folder of user files is refused, --overwrite writes beside them, keeping them") {
  mlsys::test::TempDir dir("user");
  mlsys::test::write_text(dir / "mine/summary.csv", "my own table");
  mlsys::test::write_text(dir / "mine/notes.txt", "notes");
  std::string out = (dir / "mine").string();
  auto r = run_mlsys("simulate -q --out '" + out + "'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "holds 2 file(s) that no mlsys run wrote"));
  CHECK(contains(r.err, "--overwrite"));
  CHECK(mlsys::test::read_text(dir / "mine/summary.csv") == "my own table");
  r = run_mlsys("simulate -q --out '" + out + "' --overwrite");
  CHECK(r.exit_code == 0);
  CHECK(mlsys::test::read_text(dir / "mine/notes.txt") == "notes");
  CHECK(fs::exists(dir / "mine/jobs.csv"));
}

TEST_CASE("cli folders: --overwrite replaces a finished run and removes the files only it wrote") {
  mlsys::test::TempDir dir("over");
  std::string out = (dir / "run").string();
  REQUIRE(run_mlsys("coopt -q --set run.progress=off --out '" + out + "'").exit_code == 0);
  REQUIRE(fs::exists(dir / "run/timing.json"));
  mlsys::test::write_text(dir / "run/my_notes.txt", "written after the run");
  auto refused = run_mlsys("simulate -q --out '" + out + "'");
  CHECK(refused.exit_code == 2);
  CHECK(contains(refused.err, "already holds a complete run of `mlsys coopt`"));
  auto r = run_mlsys("simulate -q --out '" + out + "' --overwrite");
  CHECK(r.exit_code == 0);
  CHECK_FALSE(fs::exists(dir / "run/timing.json"));  // coopt's files are gone
  CHECK_FALSE(fs::exists(dir / "run/priors"));
  CHECK(fs::exists(dir / "run/jobs.csv"));
  CHECK(mlsys::test::read_text(dir / "run/my_notes.txt") == "written after the run");
}
