#include <doctest/doctest.h>

#include <climits>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

TEST_CASE("json: parse and dump round trip keeps key order and values") {
  std::string text = R"({"b":1,"a":[true,false,null,"x\"y\n",-2.5e3],"c":{"d":"\u00e9"}})";
  Json j = Json::parse(text);
  CHECK(j.find("b")->as_number() == 1);
  CHECK(j.find("a")->as_array().size() == 5);
  CHECK(j.find("a")->as_array()[4].as_number() == -2500);
  CHECK(j.find("c")->find("d")->as_string() == "\xc3\xa9");
  CHECK(Json::parse(j.dump()).dump() == j.dump());
  CHECK(Json::parse(j.dump(2)).dump() == j.dump());
  CHECK(j.dump().substr(0, 5) == "{\"b\":");
}

TEST_CASE("json: errors name line and column") {
  try {
    Json::parse("{\n  \"a\": tru\n}");
    FAIL("expected error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("line 2, column 8") != std::string::npos);
  }
  CHECK_THROWS_AS(Json::parse("[1, 2"), Error);
  CHECK_THROWS_AS(Json::parse("{} x"), Error);
  CHECK_THROWS_AS(Json::parse(std::string(1000, '[')), Error);
}

TEST_CASE("json: numbers print in shortest exact form") {
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(3.0) == "3");
  CHECK(format_number(1e300) == "1e+300");
  CHECK(Json::parse(format_number(1.0 / 3.0)).as_number() == 1.0 / 3.0);
}

TEST_CASE("strings: nearest suggestion and edit distance") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(nearest("polcy", {"policy", "placer", "load"}) == "policy");
  CHECK(nearest("zzzzzz", {"policy", "placer"}).empty());
  CHECK(split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
  CHECK(format_bytes(1536) == "1.5 KiB");
}

TEST_CASE("fs: atomic write leaves no temp file and replaces content, gz read") {
  test::TempDir dir("fs");
  auto p = dir / "sub" / "f.txt";
  write_file_atomic(p, "one");
  write_file_atomic(p, "two");
  CHECK(read_file(p) == "two");
  size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir / "sub")) files += e.is_regular_file();
  CHECK(files == 1);
  CHECK_THROWS_WITH_AS(read_file(dir / "missing.txt"), doctest::Contains("file not found"), Error);
  auto r = test::run_shell("printf 'hello gz' | gzip > '" + (dir / "h.gz").string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(read_file(dir / "h.gz") == "hello gz");
}

TEST_CASE("fs: MLSYS_DATA_DIR naming no folder is an error, never treated as unset") {
  const char* old = std::getenv("MLSYS_DATA_DIR");
  std::string saved = old ? old : "";
  setenv("MLSYS_DATA_DIR", "/nonexistent/mlsys-data", 1);
  CHECK_THROWS_WITH_AS(data_dir(), doctest::Contains("MLSYS_DATA_DIR=/nonexistent/mlsys-data is not a folder"),
                       ConfigError);
  setenv("MLSYS_DATA_DIR", "", 1);
  CHECK(data_dir().empty());
  if (old) setenv("MLSYS_DATA_DIR", saved.c_str(), 1);
  else unsetenv("MLSYS_DATA_DIR");
}

TEST_CASE("json: 64-bit integers stay exact through parse and dump (2^53 + 1, 2^64 - 1, INT64_MIN)") {
  Json j = Json::parse(R"({"a":9007199254740993,"b":18446744073709551615,"c":-9223372036854775808,"d":1.5,"e":-0})");
  CHECK(j.find("a")->is_integer());
  CHECK(j.find("a")->as_int() == 9007199254740993LL);
  CHECK(j.find("b")->as_uint() == 18446744073709551615ULL);
  CHECK(j.find("c")->as_int() == INT64_MIN);
  CHECK_FALSE(j.find("d")->is_integer());
  CHECK(j.dump() == R"({"a":9007199254740993,"b":18446744073709551615,"c":-9223372036854775808,"d":1.5,"e":-0})");
  CHECK(Json(uint64_t{18446744073709551615ULL}).dump() == "18446744073709551615");
  CHECK(Json(int64_t{9007199254740993}).dump() == "9007199254740993");
  CHECK(Json(size_t{3}).as_int() == 3);
  CHECK_THROWS_AS(j.find("b")->as_int(), Error);
  CHECK_THROWS_AS(Json(-1).as_uint(), Error);
  // Beyond 64 bits an integer literal is a double, as before.
  CHECK(Json::parse("123456789012345678901234567890").as_number() == doctest::Approx(1.2345678901234568e29));
}

TEST_CASE("json: output is valid UTF-8 whatever bytes a string holds") {
  CHECK(json_escape("caf\xc3\xa9") == "caf\xc3\xa9");                   // valid 2-byte sequence kept
  CHECK(json_escape("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");          // valid 4-byte sequence kept
  CHECK(json_escape("a\xff" "b") == "a\xef\xbf\xbd" "b");                // stray byte replaced
  CHECK(json_escape("\xc3") == "\xef\xbf\xbd");                          // truncated sequence
  CHECK(json_escape("\xc0\xaf") == "\xef\xbf\xbd\xef\xbf\xbd");          // overlong '/'
  CHECK(json_escape("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // UTF-16 surrogate
  CHECK(json_escape("\xf4\x90\x80\x80").find("\xef\xbf\xbd") == 0);     // above U+10FFFF
  // A lone \ud800 escape parses to U+FFFD, not to invalid bytes.
  CHECK(Json::parse(R"("\ud800x")").as_string() == "\xef\xbf\xbdx");
  CHECK(Json::parse(R"("\ud83d\ude00")").as_string() == "\xf0\x9f\x98\x80");
  // Whatever goes in, the dump parses back (what every JSON reader needs).
  std::string bytes;
  for (int i = 1; i < 256; ++i) bytes += static_cast<char>(i);
  Json j = Json::object();
  j["log"] = bytes;
  std::string out = j.dump();
  CHECK_NOTHROW(Json::parse(out));
}

TEST_CASE("json: nesting is capped at kMaxDepth with a clear error") {
  std::string ok(Json::kMaxDepth, '[');
  ok += std::string(Json::kMaxDepth, ']');
  CHECK_NOTHROW(Json::parse(ok));
  std::string deep(Json::kMaxDepth + 2, '[');
  deep += std::string(Json::kMaxDepth + 2, ']');
  CHECK_THROWS_WITH_AS(Json::parse(deep), doctest::Contains("nesting deeper than"), Error);
  CHECK_THROWS_AS(Json::parse(std::string(1000000, '{')), Error);
}

TEST_CASE("error: reading() names the input when a reader runs out of memory or hits a stream error") {
  CHECK_THROWS_WITH_AS(reading("trace big.csv", []() -> int { throw std::bad_alloc(); }),
                       doctest::Contains("out of memory while reading trace big.csv"), Error);
  CHECK_THROWS_WITH_AS(reading("graph g", []() -> int { throw std::ios_base::failure("bad file"); }),
                       doctest::Contains("cannot read graph g"), Error);
  CHECK(reading("x", [] { return 7; }) == 7);
}
