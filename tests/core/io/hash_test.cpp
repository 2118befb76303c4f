#include <doctest/doctest.h>

#include "core/util/error.hpp"
#include "core/io/hash.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

TEST_CASE("hash: content hashes are portable constants, streaming equals one shot") {
  // XXH3-128 of the empty input as published by the xxHash project's sanity checks: it fixes the
  // digest across compilers and standard libraries (unlike std::hash).
  CHECK(content_hash("") == "99aa06d3014798d86001c324468d497f");
  ContentHasher h;
  h.add("a").add("bc");
  CHECK(h.hex() == content_hash("abc"));
  CHECK(content_hash("abd") != content_hash("abc"));
}

TEST_CASE("hash: files and folders digest size and content, folders include names") {
  test::TempDir dir("hash");
  test::write_text(dir / "d/a.txt", "abc");
  test::write_text(dir / "d/sub/b.txt", "hello");
  FileDigest f = digest_path(dir / "d/a.txt");
  CHECK(f.size == 3);
  CHECK(f.files == 1);
  CHECK(f.hash == content_hash("abc"));
  FileDigest d = digest_path(dir / "d");
  CHECK(d.size == 8);
  CHECK(d.files == 2);
  std::filesystem::rename(dir / "d/sub/b.txt", dir / "d/sub/c.txt");
  CHECK(digest_path(dir / "d").hash != d.hash);
  CHECK_THROWS_WITH_AS(digest_path(dir / "missing"), doctest::Contains("input not found"), Error);
  CHECK_THROWS_WITH_AS(digest_path("/dev/null"), doctest::Contains("not a regular file"), Error);
}
