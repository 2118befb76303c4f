#include <doctest/doctest.h>

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
