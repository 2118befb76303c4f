// Atomic writes and temporaries: unpredictable names created exclusively, symlinks never followed,
// nothing left behind; explicit output files not replaced without --overwrite; bounded reads.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

namespace {
size_t count_entries(const fs::path& dir) {
  size_t n = 0;
  for (auto& e : fs::directory_iterator(dir)) n += !e.path().empty();
  return n;
}
}  // namespace

TEST_CASE("fs temp: random exclusive names, registered while open, removed unless committed") {
  test::TempDir dir("tmpf");
  fs::path target = dir / "out.csv";
  int before = registered_temporaries();
  {
    TempFile a(target), b(target);
    CHECK(a.path() != b.path());
    CHECK(a.path().parent_path() == dir.path());
    CHECK(a.path().filename().string().rfind(".out.csv.", 0) == 0);
    CHECK(registered_temporaries() == before + 2);
    a.write("abc");
    a.commit();
    CHECK(registered_temporaries() == before + 1);
  }
  CHECK(registered_temporaries() == before);
  CHECK(test::read_text(target) == "abc");
  CHECK(count_entries(dir.path()) == 1);  // b was never committed: removed
}

TEST_CASE("fs temp: a symlink at the target is replaced, never followed") {
  test::TempDir dir("tmpf");
  test::write_text(dir / "victim.txt", "precious");
  fs::create_symlink(dir / "victim.txt", dir / "out.txt");
  write_file_atomic(dir / "out.txt", "new");
  CHECK(test::read_text(dir / "victim.txt") == "precious");
  CHECK_FALSE(fs::is_symlink(dir / "out.txt"));
  CHECK(test::read_text(dir / "out.txt") == "new");
}

TEST_CASE("fs temp: remove_registered_temporaries deletes open temporaries (the second-signal path)") {
  test::TempDir dir("tmpf");
  TempFile t(dir / "big.bin");
  t.write("partial");
  REQUIRE(fs::exists(t.path()));
  remove_registered_temporaries();
  CHECK_FALSE(fs::exists(t.path()));
}

TEST_CASE("fs: an explicit output file is not replaced without overwrite") {
  test::TempDir dir("tmpf");
  CHECK_NOTHROW(refuse_to_replace(dir / "trace.csv", false, "tracegen.out"));
  test::write_text(dir / "trace.csv", "x");
  CHECK_THROWS_WITH_AS(refuse_to_replace(dir / "trace.csv", false, "tracegen.out"),
                       doctest::Contains("tracegen.out = "), ConfigError);
  CHECK_THROWS_WITH_AS(refuse_to_replace(dir / "trace.csv", false, "tracegen.out"), doctest::Contains("--overwrite"),
                       ConfigError);
  CHECK_NOTHROW(refuse_to_replace(dir / "trace.csv", true, "tracegen.out"));
  fs::create_symlink(dir / "nowhere", dir / "dangling");
  CHECK_THROWS_AS(refuse_to_replace(dir / "dangling", false, "k"), ConfigError);
}

TEST_CASE("fs read: folders, devices, size caps and truncated gzip are clear errors naming the file") {
  test::TempDir dir("tmpf");
  CHECK_THROWS_WITH_AS(read_file(dir.path()), doctest::Contains("is a folder, not a file"), Error);
  CHECK_THROWS_WITH_AS(read_file("/dev/zero"), doctest::Contains("/dev/zero: not a regular file"), Error);
  test::write_text(dir / "big.txt", std::string(1000, 'x'));
  CHECK(read_file(dir / "big.txt", 1000).size() == 1000);
  CHECK_THROWS_WITH_AS(read_file(dir / "big.txt", 999), doctest::Contains("big.txt is larger than"), Error);
  auto r = test::run_shell("head -c 200000 /dev/urandom | gzip > '" + (dir / "t.gz").string() + "' && head -c 1000 '" +
                           (dir / "t.gz").string() + "' > '" + (dir / "cut.gz").string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(read_file(dir / "t.gz").size() == 200000);
  CHECK_THROWS_WITH_AS(read_file(dir / "t.gz", 1000), doctest::Contains("(decompressed)"), Error);
  CHECK_THROWS_WITH_AS(read_file(dir / "cut.gz"), doctest::Contains("cut.gz"), Error);
  CHECK_THROWS_WITH_AS(read_file(dir / "cut.gz"), doctest::Contains("truncated or corrupt gzip"), Error);
}
