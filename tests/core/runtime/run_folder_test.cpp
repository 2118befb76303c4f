// Output folder ownership: exclusive lock, the manifest's states, what --overwrite removes.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "core/runtime/run_folder.hpp"
#include "core/util/error.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

namespace {
std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> out;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (!e.is_directory()) out.insert(e.path().lexically_relative(dir).generic_string());
  out.erase(RunFolder::kLockFile);
  out.erase(RunFolder::kManifest);
  return out;
}
}  // namespace

TEST_CASE("run folder: a claimed folder is locked against a second claim until released") {
  test::TempDir dir("folder");
  {
    RunFolder a = RunFolder::claim(dir / "run", "demo", false);
    CHECK(run_folder_status(dir / "run") == "running");
    CHECK_THROWS_WITH_AS(RunFolder::claim(dir / "run", "demo", true), doctest::Contains("is in use by another mlsys run"),
                         UsageError);
    a.mark("failed", "boom");
  }
  CHECK(run_folder_status(dir / "run") == "failed");
  CHECK_NOTHROW(RunFolder::claim(dir / "run", "demo", false));  // a failed run's folder is reusable
}

TEST_CASE("run folder: a finished run is kept unless overwrite, which removes exactly its files") {
  test::TempDir dir("folder");
  {
    RunFolder a = RunFolder::claim(dir / "run", "demo", false);
    test::write_text(dir / "run/summary.json", "{}");
    test::write_text(dir / "run/sub/shard.bin", "x");
    a.mark("complete");
  }
  test::write_text(dir / "run/notes.txt", "added by the user afterwards");
  CHECK_THROWS_WITH_AS(RunFolder::claim(dir / "run", "demo", false), doctest::Contains("already holds a complete run"),
                       UsageError);
  RunFolder b = RunFolder::claim(dir / "run", "demo", true);
  CHECK(files_in(dir / "run") == std::set<std::string>{"notes.txt"});
  CHECK_FALSE(fs::exists(dir / "run/sub"));
  CHECK(b.note().find("replaced the complete run") != std::string::npos);
}

TEST_CASE("run folder: a folder of other files is refused, and with overwrite its files are kept") {
  test::TempDir dir("folder");
  test::write_text(dir / "mine/data.csv", "user data");
  CHECK_THROWS_WITH_AS(RunFolder::claim(dir / "mine", "demo", false),
                       doctest::Contains("holds 1 file(s) that no mlsys run wrote (data.csv)"), UsageError);
  {
    RunFolder a = RunFolder::claim(dir / "mine", "demo", true);
    test::write_text(dir / "mine/result.csv", "r");
    a.mark("complete");
  }
  {
    RunFolder b = RunFolder::claim(dir / "mine", "demo", true);
    CHECK(files_in(dir / "mine") == std::set<std::string>{"data.csv"});
  }
  CHECK(test::read_text(dir / "mine/data.csv") == "user data");
}

TEST_CASE("run folder: a run that died is reusable, everything it wrote goes, inputs named in protect stay") {
  test::TempDir dir("folder");
  test::write_text(dir / "run/before.txt", "b");
  {
    RunFolder a = RunFolder::claim(dir / "run", "demo", true);
    test::write_text(dir / "run/checkpoint.bin", "state");
    test::write_text(dir / "run/half.csv", "x");
    // no mark(): the process died (the lock goes with it)
  }
  CHECK(run_folder_status(dir / "run") == "running");
  RunFolder b = RunFolder::claim(dir / "run", "demo", false, {dir / "run/checkpoint.bin"});
  CHECK(files_in(dir / "run") == std::set<std::string>{"before.txt", "checkpoint.bin"});
  CHECK(b.note().find("crashed") != std::string::npos);
}

TEST_CASE("run folder: new folders get unique names even when made in the same second") {
  test::TempDir dir("folder");
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) names.insert(RunFolder::claim_new(dir / "results", "demo").dir().string());
  CHECK(names.size() == 20);
}
