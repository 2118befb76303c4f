// The run record in summary.json and config.yaml: every input with path, size and content hash,
// the build and process facts, and a config.yaml whose re-run goes to a fresh folder.
#include <doctest/doctest.h>

#include "core/runtime/build_info.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/run_record.hpp"
#include "core/util/error.hpp"
#include "core/io/hash.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

TEST_CASE("run record: inputs with path, size and hash, builtin inputs, build and process facts") {
  test::TempDir dir("record");
  test::write_text(dir / "trace.csv", "a,b\n1,2\n");
  test::write_text(dir / "graph/edges.txt", "0 1\n");
  auto cfg = config::resolve({&run_section()}, {}, {"run.out_dir=" + (dir / "run").string(), "run.log_level=warn",
                                                     "run.seed=7"});
  {
    RunContext ctx("demo", std::move(cfg));
    ctx.record_input("trace", dir / "trace.csv");
    ctx.record_input("graph", dir / "graph");
    ctx.record_builtin_input("throughputs", "built-in table of 3 GPU types");
    CHECK_THROWS_AS(ctx.record_input("missing", dir / "nope.csv"), Error);
    ctx.finish();
  }
  Json s = Json::parse(test::read_text(dir / "run/summary.json"));
  const Json& run = *s.find("run");
  CHECK(run.find("command")->as_string() == "demo");
  CHECK(run.find("status")->as_string() == "complete");
  CHECK(run.find("partial")->as_bool() == false);
  CHECK(run.find("seed")->as_number() == 7);
  CHECK(!run.find("git_sha")->as_string().empty());
  CHECK(run.find("compiler")->as_string() == compiler_name());
  CHECK(!run.find("host")->as_string().empty());
  CHECK(run.find("start_time")->as_string() <= run.find("end_time")->as_string());
  CHECK(run.find("threads")->as_number() >= 1);
  CHECK(run.find("environment")->contains("MLSYS_DATA_DIR"));
  const Json& trace = *run.find("inputs")->find("trace");
  CHECK(trace.find("path")->as_string() == fs::absolute(dir / "trace.csv").lexically_normal().string());
  CHECK(trace.find("size")->as_number() == 8);
  CHECK(trace.find(kContentHashName)->as_string() == content_hash("a,b\n1,2\n"));
  CHECK(run.find("inputs")->find("graph")->find("files")->as_number() == 1);
  CHECK(run.find("inputs")->find("throughputs")->find("path")->as_string() == "builtin");
  CHECK(run.find("inputs")->find("missing") == nullptr);
}

TEST_CASE("run record: config.yaml resets out_dir and overwrite and prints a re-run line") {
  test::TempDir dir("record");
  std::string out = (dir / "run").string();
  auto cfg = config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=warn", "run.overwrite=true"});
  {
    RunContext ctx("demo", std::move(cfg));
    ctx.finish();
  }
  std::string text = test::read_text(dir / "run/config.yaml");
  CHECK(text.find("# re-run with: ") != std::string::npos);
  CHECK(text.find(" demo " + fs::absolute(out).lexically_normal().string() + "/config.yaml\n") != std::string::npos);
  auto back = config::resolve({&run_section()}, {(dir / "run/config.yaml").string()}, {});
  CHECK(back.get(run_section()).out_dir.empty());
  CHECK(back.get(run_section()).overwrite == false);
}

TEST_CASE("run record: a failed run logs its error in run.log and leaves the folder reusable") {
  test::TempDir dir("record");
  std::string out = (dir / "run").string();
  {
    RunContext ctx("demo", config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=quiet"}));
    ctx.fail("trace file not found: x.csv");
  }
  std::string log = test::read_text(dir / "run/run.log");
  CHECK(log.find("mlsys: error: trace file not found: x.csv") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "run/summary.json"));
  RunContext again("demo", config::resolve({&run_section()}, {}, {"run.out_dir=" + out, "run.log_level=quiet"}));
  again.finish();
  CHECK(fs::exists(dir / "run/summary.json"));
}
