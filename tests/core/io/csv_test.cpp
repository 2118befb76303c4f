#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/runtime/table.hpp"
#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

TEST_CASE("split_csv unquotes RFC 4180 fields and reports an unclosed quote") {
  std::vector<std::string_view> f;
  std::string scratch;
  REQUIRE(split_csv("a,\"b,c\",,\"d\"\"e\",", f, scratch));
  REQUIRE(f.size() == 5);
  CHECK(f[0] == "a");
  CHECK(f[1] == "b,c");
  CHECK(f[2].empty());
  CHECK(f[3] == "d\"e");
  CHECK(f[4].empty());
  CHECK(!split_csv("a,\"b", f, scratch));
  split_plain("x\ty\t", '\t', f);
  REQUIRE(f.size() == 3);
  CHECK(f[1] == "y");
  CHECK(f[2].empty());
}

TEST_CASE("CsvReader: header names, blank lines, short rows, unclosed quotes and where") {
  test::TempDir dir("csv");
  auto path = dir / "t.csv";
  test::write_text(path, "\xEF\xBB\xBF Job_ID ,Value\n\n1,\"x,y\"\n   \n2\n3,\"open\n");
  CsvReader in(path);
  const auto& names = in.read_header(/*lower=*/true);
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "job_id");  // byte-order mark dropped, trimmed, lower-cased
  CHECK(in.column("JOB_ID") == 0);
  CHECK(in.column("missing") == -1);
  CHECK_THROWS_WITH_AS(in.require("missing"), doctest::Contains("t.csv:1: missing column 'missing'"), InputError);
  REQUIRE(in.next());
  CHECK(in.complete());
  CHECK(in.line() == 3);
  CHECK(in.field(1) == "x,y");
  REQUIRE(in.next());  // the blank line 4 is skipped
  CHECK(in.line() == 5);
  CHECK(in.field(1).empty());  // short row: missing fields read as empty
  REQUIRE(in.next());
  CHECK_FALSE(in.complete());
  CHECK(in.where(2) == path.string() + ":6:2");
  CHECK_FALSE(in.next());
}

TEST_CASE("CsvReader: an empty file or a header with an unclosed quote is an input error") {
  test::TempDir dir("csv");
  test::write_text(dir / "empty.csv", "\n  \n");
  CsvReader empty(dir / "empty.csv");
  CHECK_THROWS_WITH_AS(empty.read_header(), doctest::Contains("empty file"), InputError);
  test::write_text(dir / "open.csv", "a,\"b\n1,2\n");
  CsvReader open(dir / "open.csv");
  CHECK_THROWS_WITH_AS(open.read_header(), doctest::Contains("open.csv:1: header has an unclosed quote"), InputError);
  CHECK_THROWS_AS(CsvReader(dir / "no_such.csv"), Error);
}

TEST_CASE("what Table writes, CsvReader reads back field for field") {
  const std::vector<std::string> tricky = {"plain", "with,comma", "with \"quotes\"", "\"", ",", "", " spaced "};
  Table t({"id", "n"});
  for (size_t i = 0; i < tricky.size(); ++i) t.add_row({tricky[i], static_cast<int64_t>(i)});
  test::TempDir dir("csv");
  t.write_csv((dir / "t.csv").string());
  CsvReader in(dir / "t.csv");
  in.read_header();
  std::vector<std::string> back;
  while (in.next()) {
    REQUIRE(in.complete());
    back.emplace_back(in.field(0));
  }
  // The empty id is a row "" + ",5": not blank, so it is read too.
  CHECK(back == tricky);
}
