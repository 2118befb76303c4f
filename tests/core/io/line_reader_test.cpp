#include <doctest/doctest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

namespace {

std::vector<std::string> all_lines(const std::filesystem::path& p, size_t chunk) {
  LineReader in(p, chunk);
  std::vector<std::string> out;
  std::string_view line;
  while (in.next(line)) {
    out.emplace_back(line);
    CHECK(in.line_number() == static_cast<int64_t>(out.size()));
  }
  return out;
}

}  // namespace

TEST_CASE("LineReader: CRLF, empty lines, a last line without newline, lines longer than the buffer") {
  test::TempDir dir("lines");
  const std::string longline(5000, 'x');
  test::write_text(dir / "a.txt", "one\r\n\ntwo\n" + longline + "\nlast");
  const std::vector<std::string> want = {"one", "", "two", longline, "last"};
  for (size_t chunk : {size_t{16}, size_t{1} << 20}) CHECK(all_lines(dir / "a.txt", chunk) == want);
  CHECK(count_lines(dir / "a.txt") == 5);
  test::write_text(dir / "b.txt", "x\ny\n");
  CHECK(all_lines(dir / "b.txt", 64) == std::vector<std::string>{"x", "y"});
  CHECK(count_lines(dir / "b.txt") == 2);
}

TEST_CASE("LineReader reads gzip files like plain ones and names the path in errors") {
  test::TempDir dir("lines");
  auto gz = (dir / "a.txt.gz").string();
  gzFile f = gzopen(gz.c_str(), "wb");
  REQUIRE(f != nullptr);
  const std::string text = "alpha\nbeta\n";
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  CHECK(all_lines(gz, 1024) == std::vector<std::string>{"alpha", "beta"});
  // Missing, a folder: refused by the one input check (core/util/fs.hpp) before anything opens.
  CHECK_THROWS_WITH_AS(LineReader(dir / "missing.txt"), doctest::Contains("file not found: "), InputError);
  CHECK_THROWS_WITH_AS(LineReader(dir.path()), doctest::Contains("is a folder"), Error);
}

TEST_CASE("LineReader drops a UTF-8 byte-order mark from the first line only") {
  test::TempDir dir("lines_bom");
  const std::string bom = "\xEF\xBB\xBF";
  test::write_text(dir / "bom.csv", bom + "job_id,submit_time\r\n" + bom + "x,1\n");
  CHECK(all_lines(dir / "bom.csv", 64) == std::vector<std::string>{"job_id,submit_time", bom + "x,1"});
}

TEST_CASE("LineReader refuses devices and FIFOs instead of reading them forever") {
  // /dev/zero never ends: before, a trace or jobs file named /dev/zero was read until memory ran out.
  CHECK_THROWS_AS(LineReader{"/dev/zero"}, InputError);
  try {
    LineReader in{"/dev/zero"};
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
  }
  test::TempDir dir("lines_fifo");
  const auto fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_AS(LineReader{fifo}, InputError);  // refused before open(), which would block
}
