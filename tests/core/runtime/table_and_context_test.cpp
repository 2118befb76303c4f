#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_folder.hpp"
#include "core/process/system.hpp"
#include "core/runtime/table.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

TEST_CASE("table: CSV quoting and exact numbers, text alignment") {
  Table t({"name", "value", "count"});
  t.add_row({std::string("a,b"), 0.1, int64_t{3}});
  t.add_row({std::string("say \"hi\""), 2.5, int64_t{-1}});
  CHECK(t.to_csv() == "name,value,count\n\"a,b\",0.1,3\n\"say \"\"hi\"\"\",2.5,-1\n");
  CHECK(t.to_text().find("0.100") != std::string::npos);
  CHECK_THROWS(t.add_row({std::string("short")}));
}

TEST_CASE("run context: creates the folder, writes config.yaml and refuses to reuse a run folder") {
  test::TempDir dir("ctx");
  auto out = (dir / "run1").string();
  auto cfg = config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=warn"});
  {
    RunContext ctx("demo", std::move(cfg));
    ctx.summary()["answer"] = 42;
    Table t({"x"});
    t.add_row({1.0});
    ctx.write_table("t.csv", t);
    ctx.finish();
  }
  CHECK(test::read_text(dir / "run1/config.yaml").find("out_dir:") != std::string::npos);
  Json s = Json::parse(test::read_text(dir / "run1/summary.json"));
  CHECK(s.find("answer")->as_number() == 42);
  CHECK(s.find("resources")->find("peak_host_rss_bytes")->as_number() > 0);
  CHECK(test::read_text(dir / "run1/t.csv") == "x\n1\n");
  auto again = config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=warn"});
  CHECK_THROWS_AS(RunContext("demo", std::move(again)), UsageError);
  auto forced = config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.overwrite=true", "run.log_level=warn"});
  CHECK_NOTHROW(RunContext("demo", std::move(forced)));
}

TEST_CASE("run context: a result that cannot be written makes the run incomplete, the others are still written") {
  // A run that lost an output (a full disk, a folder in the way) used to be marked complete (a
  // checkpoint) or lose every later result and its summary (a table).
  test::TempDir dir("ctx_missing");
  auto out = (dir / "run").string();
  auto cfg = config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=quiet"});
  {
    RunContext ctx("demo", std::move(cfg));
    std::filesystem::create_directories(dir / "run/blocked.csv/inside");  // a folder where the file goes
    Table t({"x"});
    t.add_row({1.0});
    ctx.write_table("blocked.csv", t);
    CHECK(ctx.incomplete());
    ctx.write_table("fine.csv", t);
    ctx.missing_output("checkpoint.bin", "No space left on device");
    ctx.finish();
  }
  CHECK(test::read_text(dir / "run/fine.csv") == "x\n1\n");
  Json s = Json::parse(test::read_text(dir / "run/summary.json"));
  CHECK(s["run"]["status"].as_string() == "incomplete");
  CHECK(s["run"]["partial"].as_bool());
  const Json* missing = s["run"].find("missing");
  REQUIRE(missing);
  REQUIRE(missing->size() == 2);
  CHECK(missing->as_array()[0].find("output")->as_string() == "blocked.csv");
  CHECK(missing->as_array()[1].find("error")->as_string() == "No space left on device");
  CHECK(run_folder_status(dir / "run") == "incomplete");
}

TEST_CASE("system: memory report lists registered pools") {
  int id = register_memory_reporter("test_pool", [] {
    Json j = Json::object();
    j["in_use"] = 5;
    return j;
  });
  Json r = memory_report();
  CHECK(r.find("pools")->find("test_pool")->find("in_use")->as_number() == 5);
  unregister_memory_reporter(id);
  CHECK(memory_report().find("pools")->find("test_pool") == nullptr);
  CHECK(peak_rss_bytes() >= current_rss_bytes() / 2);
}

TEST_CASE("system: memory report lists pools by name, whatever order threads registered them in") {
  int b = register_memory_reporter("zz.rank1", [] { return Json(1); });
  int a = register_memory_reporter("zz.rank0", [] { return Json(0); });
  std::vector<std::string> names;
  const Json report = memory_report();
  for (const auto& [k, v] : report.find("pools")->as_object()) names.push_back(k);
  auto r0 = std::find(names.begin(), names.end(), "zz.rank0"), r1 = std::find(names.begin(), names.end(), "zz.rank1");
  REQUIRE(r0 != names.end());
  REQUIRE(r1 != names.end());
  CHECK(r0 < r1);
  CHECK(std::is_sorted(names.begin(), names.end()));
  unregister_memory_reporter(a);
  unregister_memory_reporter(b);
}
