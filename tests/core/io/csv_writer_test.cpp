// CsvFileWriter and the field/number writers large outputs stream through (jobs.csv, trace.csv):
// quoting the reader undoes, numbers as format_number writes them, and all-or-nothing files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/io/csv.hpp"
#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

namespace {
std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
size_t files_in(const std::filesystem::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}
}  // namespace

TEST_CASE("append_csv_field quotes only what needs it, and the reader gets the text back") {
  const std::vector<std::string> texts{"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", "", " spaced "};
  std::string line;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) line += ',';
    append_csv_field(line, texts[i]);
  }
  CHECK(line.rfind("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rhere\",, spaced ", 0) == 0);
  std::string forced;
  append_csv_field(forced, "x", /*force_quote=*/true);
  CHECK(forced == "\"x\"");
  // Without the line break (a CsvReader row is one line), the reader returns each field as written.
  std::string one_line;
  for (const char* t : {"plain", "a,b", "say \"hi\"", ""}) {
    if (!one_line.empty() || t != std::string("plain")) one_line += ',';
    append_csv_field(one_line, t);
  }
  std::vector<std::string_view> f;
  std::string scratch;
  REQUIRE(split_csv(one_line, f, scratch));
  REQUIRE(f.size() == 4);
  CHECK(f[1] == "a,b");
  CHECK(f[2] == "say \"hi\"");
  CHECK(f[3].empty());
}

TEST_CASE("append_csv_number writes what format_number writes") {
  for (double v : {0.0, -0.0, 1.0, -7.0, 0.1, 1.0 / 3, 2.5e-300, 123456789012345.0, 1e15, 1e300, -1234.5678, 86400.0,
                   std::nan(""), HUGE_VAL}) {
    std::string s;
    append_csv_number(s, v);
    CHECK_MESSAGE(s == format_number(v), v);
  }
  std::string i;
  append_csv_integer(i, -9223372036854775807LL - 1);
  CHECK(i == "-9223372036854775808");
}

TEST_CASE("CsvFileWriter: rows appear only on commit, across buffer flushes, and no commit leaves nothing") {
  test::TempDir dir("csvw");
  const auto path = dir / "out.csv";
  {
    CsvFileWriter w(path, /*buffer_bytes=*/64);  // tiny buffer: many flushes
    w.header({"id", "name", "value"});
    for (int r = 0; r < 1000; ++r) {
      w.integer(r);
      w.field(r % 7 == 0 ? "with,comma" : "n");
      w.number(r / 4.0);
      w.end_row();
    }
    CHECK(w.rows() == 1000);
    CHECK(!std::filesystem::exists(path));  // still the temporary
    w.commit();
  }
  const std::string text = slurp(path);
  CHECK(text.rfind("id,name,value\n0,\"with,comma\",0\n1,n,0.25\n", 0) == 0);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1001);
  CHECK(files_in(dir.path()) == 1);
  {
    CsvFileWriter w(dir / "abandoned.csv", 64);
    w.header({"a"});
    for (int r = 0; r < 100; ++r) {
      w.integer(r);
      w.end_row();
    }
  }  // destroyed without commit, as on an error or an interrupt
  CHECK(!std::filesystem::exists(dir / "abandoned.csv"));
  CHECK(files_in(dir.path()) == 1);  // no temporary left behind
}
