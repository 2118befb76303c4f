#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/error.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;
using mlsys::test::TempDir;
using mlsys::test::write_text;

TEST_CASE("valid_utf8 keeps valid text and replaces every invalid sequence") {
  CHECK(valid_utf8("plain ascii") == "plain ascii");
  CHECK(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  const std::string r = "\xEF\xBF\xBD";
  CHECK(valid_utf8("\xff") == r);
  CHECK(valid_utf8("a\xc3") == "a" + r);                 // truncated
  CHECK(valid_utf8("\xc0\xaf") == r + r);                // overlong
  CHECK(valid_utf8("\xed\xa0\x80") == r + r + r);        // surrogate
  CHECK(valid_utf8("\xf4\x90\x80\x80") == r + r + r + r);  // past U+10FFFF
}

TEST_CASE("log lines: annotations, cut lines, CRLF") {
  InputLimits l;
  l.max_line_bytes = 8;
  LogText t = log_lines("# LABEL: x\r\n# not an annotation\nabcdefghijkl\r\nok\n", l, false);
  REQUIRE(t.lines.size() == 3);
  CHECK(t.lines[0] == "# not an");
  CHECK(t.lines[1] == "abcdefgh");
  CHECK(t.lines[2] == "ok");
  CHECK(t.annotations == 1);
  CHECK(t.cut_lines == 2);
  CHECK(log_lines("# LABEL: x\n", l, true).lines.size() == 1);
  CHECK(is_annotation("# SOURCES: a ; b"));
  CHECK_FALSE(is_annotation("# step 3"));
  CHECK_FALSE(is_annotation("#LABEL: x"));
}

TEST_CASE("regular files only, within their size limit, @file references stay in their folder") {
  TempDir d("smbounded");
  write_text(d / "s/run.py", "x = 1\n");
  write_text(d / "s/sub/deep.py", "y = 2\n");
  write_text(d / "outside.py", "z = 3\n");
  CHECK(read_regular_file(d / "s/run.py", 100, "k") == "x = 1\n");
  CHECK_THROWS_WITH_AS(read_regular_file(d / "s/run.py", 3, "schedmate.limits.x"), doctest::Contains("schedmate.limits.x"), InputError);
  CHECK_THROWS_WITH_AS(read_regular_file("/dev/zero", 100, "k"), doctest::Contains("not a regular file"), InputError);
  CHECK_THROWS_AS(read_regular_file(d / "missing", 100, "k"), InputError);
  InputLimits l;
  CHECK(read_referenced_file("run.py", d / "s", d / "s", l, "jobs.jsonl:1") == "x = 1\n");
  CHECK(read_referenced_file("sub/deep.py", d / "s", d / "s", l, "jobs.jsonl:1") == "y = 2\n");
  CHECK_THROWS_WITH_AS(read_referenced_file("../outside.py", d / "s", d / "s", l, "jobs.jsonl:1"), doctest::Contains("outside"), InputError);
  CHECK_THROWS_WITH_AS(read_referenced_file("/etc/passwd", d / "s", d / "s", l, "jobs.jsonl:1"), doctest::Contains("outside"), InputError);
  std::filesystem::create_symlink(d / "outside.py", d / "s/link.py");
  CHECK_THROWS_WITH_AS(read_referenced_file("link.py", d / "s", d / "s", l, "jobs.jsonl:1"), doctest::Contains("outside"), InputError);
  // A wider folder allows it.
  CHECK(read_referenced_file("../outside.py", d / "s", d.path(), l, "jobs.jsonl:1") == "z = 3\n");
}

TEST_CASE("JSON depth is measured without parsing") {
  CHECK(json_depth("{\"a\": [1, {\"b\": 2}]}", 10) == 3);
  CHECK(json_depth("\"[[[[\"", 10) == 0);
  CHECK(json_depth(std::string(100000, '['), 32) == 33);
}
