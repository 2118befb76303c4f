#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <map>

#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/generator/log_generator.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using mlsys::test::read_text;
using mlsys::test::run_mlsys;
using mlsys::test::TempDir;

namespace {
std::string fixture(const std::string& name) { return (test::source_dir() / "tests/sched/schedmate/fixtures" / name).string(); }
std::vector<std::vector<std::string>> csv_rows(const std::filesystem::path& p) {
  std::vector<std::vector<std::string>> out;
  for (const auto& l : schedmate::split_lines(read_text(p)))
    if (!l.empty()) out.push_back(split(l, ','));
  return out;
}
}  // namespace

TEST_CASE("mlsys schedmate (no config) runs the demo quickly and deterministically") {
  TempDir d("smdemo");
  auto r1 = run_mlsys("schedmate --out " + (d / "a").string());
  REQUIRE_MESSAGE(r1.exit_code == 0, r1.err);
  CHECK(r1.out.find("failure handler") != std::string::npos);
  auto r2 = run_mlsys("schedmate --out " + (d / "b").string());
  REQUIRE(r2.exit_code == 0);
  CHECK(read_text(d / "a/predictions.csv") == read_text(d / "b/predictions.csv"));
  CHECK(read_text(d / "a/hints.csv") == read_text(d / "b/hints.csv"));
  CHECK(read_text(d / "a/hints.csv").rfind("job_id,predicted_duration_s,uncertainty_s,failure_action\n", 0) == 0);
  Json s = Json::parse(read_text(d / "a/summary.json"));
  CHECK(s.find("classification")->find("macro_f1")->as_number() >= 0.95);
  CHECK(s.find("classification")->find("user_error_retries")->as_number() == 0);
  CHECK(s.find("tracker")->find("max_remaining_error_at_5pct")->as_number() <= 0.10);
  CHECK(s.find("advisor")->find("within_50pct")->as_number() >= 0.8);
}

TEST_CASE("advise on a JSONL job file: hints with failure actions from <job_id>.log (golden)") {
  TempDir d("smadvise");
  auto r = run_mlsys("schedmate advise --jobs " + fixture("jobs.jsonl") + " --log " + fixture("b2.log") + " --out " +
                     (d / "o").string());
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto rows = csv_rows(d / "o/hints.csv");
  REQUIRE(rows.size() == 7);
  std::map<std::string, std::vector<std::string>> by_id;
  for (size_t i = 1; i < rows.size(); ++i) by_id[rows[i][0]] = rows[i];
  CHECK(by_id["b2"][3] == "resubmit_more_memory");
  CHECK(by_id["a1"][3] == "");
  // a2 has a1 (finished at t=1000) as an exact neighbour: 1000 steps/1000 s -> 4000 s.
  CHECK(std::stod(by_id["a2"][1]) == doctest::Approx(4000));
  // a3: same model, twice the batch: samples/s carries over from a1/a2.
  CHECK(std::stod(by_id["a3"][1]) > 3000);
  // Golden: the whole hints file is fixed for this input.
  CHECK(read_text(d / "o/hints.csv") == read_text(fixture("golden_hints.csv")));
}

TEST_CASE("genlogs then diagnose: every generated log gets its label") {
  TempDir d("smgen");
  auto g = run_mlsys("schedmate genlogs --set schedmate.generate.logs_per_case=1 --set schedmate.generate.steps=600 --out " +
                     (d / "g").string());
  REQUIRE_MESSAGE(g.exit_code == 0, g.err);
  auto r = run_mlsys("schedmate diagnose --log " + (d / "g/logs").string() + " --out " + (d / "d").string());
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<std::string, std::string> truth;
  for (const auto& row : csv_rows(d / "g/logs/labels.csv")) truth[row[0]] = row[1];
  auto rows = csv_rows(d / "d/diagnoses.csv");
  REQUIRE(rows.size() == truth.size());  // header + one per log (labels.csv is not a .log)
  int checked = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    std::string file = std::filesystem::path(rows[i][0]).filename().string();
    INFO(file);
    CHECK(rows[i][1] == truth[file]);
    ++checked;
  }
  CHECK(checked == static_cast<int>(schedmate::generated_formats().size() * schedmate::all_categories().size()));
}

TEST_CASE("track a log file, and follow one that is already complete") {
  TempDir d("smtrack");
  auto g = run_mlsys("schedmate genlogs --set schedmate.generate.logs_per_case=1 --set schedmate.generate.steps=600 --out " +
                     (d / "g").string());
  REQUIRE(g.exit_code == 0);
  const std::string log = (d / "g/logs/megatron__none__0.log").string();
  auto r = run_mlsys("schedmate track --log " + log + " --out " + (d / "t").string());
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  Json rec = Json::parse(schedmate::split_lines(read_text(d / "t/track.jsonl"))[0]);
  CHECK(rec.find("progress")->find("format")->as_string() == "megatron");
  CHECK(rec.find("progress")->find("fraction")->as_number() == 1.0);
  auto f = run_mlsys("schedmate track --log " + log + " --follow --set schedmate.idle_timeout_s=1 --out " + (d / "f").string());
  REQUIRE_MESSAGE(f.exit_code == 0, f.err);
  CHECK(f.out.find("stopped: finished") != std::string::npos);
  const std::string failed = (d / "g/logs/tqdm__user-script_error__0.log").string();
  auto s = run_mlsys("schedmate track --log " + failed + " --follow --set schedmate.idle_timeout_s=1 --out " + (d / "s").string());
  REQUIRE(s.exit_code == 0);
  CHECK(s.out.find("stopped: stop_line") != std::string::npos);
  CHECK(read_text(d / "s/track.jsonl").find("\"do_not_retry\"") != std::string::npos);
}

TEST_CASE("follow a log that does not exist: exit 2 naming the key, or wait follow_wait_s for it") {
  // Before: 0 lines and exit 0 after the idle timeout, as if the job had written nothing.
  TempDir d("smfollow_missing");
  const std::string missing = (d / "not_yet.log").string();
  auto r = run_mlsys("schedmate track --log " + missing + " --follow --out " + (d / "a").string());
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("schedmate.log (--log) = '" + missing + "': no such file or folder") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find("schedmate.follow_wait_s") != std::string::npos, r.err);
  auto w = run_mlsys("schedmate track --log " + missing + " --follow --set schedmate.follow_wait_s=0.3 --out " +
                     (d / "b").string());
  CHECK(w.exit_code == 1);
  CHECK_MESSAGE(w.err.find("did not appear within schedmate.follow_wait_s = 0.3 s") != std::string::npos, w.err);
}

TEST_CASE("bad inputs fail with a message, not a crash") {
  TempDir d("smbad");
  auto r = run_mlsys("schedmate advise --jobs " + (d / "missing.jsonl").string() + " --out " + (d / "o").string());
  CHECK(r.exit_code == 2);  // a missing input the user named is bad usage
  CHECK(r.err.find("schedmate.jobs = '" + (d / "missing.jsonl").string() + "': no such file or folder") != std::string::npos);
  test::write_text(d / "bad.jsonl", "{\"id\": \"x\"}\n{oops\n");
  r = run_mlsys("schedmate advise --jobs " + (d / "bad.jsonl").string() + " --out " + (d / "o2").string());
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("bad.jsonl:2") != std::string::npos);
  r = run_mlsys("schedmate --set schedmate.analyzer=gpt4 --out " + (d / "o3").string());
  CHECK(r.exit_code == 2);
  r = run_mlsys("schedmate diagnose --log " + (d / "nope.log").string() + " --out " + (d / "o4").string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nope.log': no such file or folder") != std::string::npos);
  r = run_mlsys("schedmate --analyzer openai --set schedmate.openai.url=ftp://llm.example/v1 --out " + (d / "o5").string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("http://") != std::string::npos);
  // A throughputs file given is a file used: a missing one is a config error, not a fallback.
  r = run_mlsys("schedmate advise --jobs " + fixture("jobs.jsonl") + " --set schedmate.throughputs=" + (d / "none.csv").string() +
                " --out " + (d / "o6").string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("schedmate.throughputs") != std::string::npos);
}

TEST_CASE("repro configs resolve against the current config schema") {
  // The repro configs name ${MLSYS_DATA_DIR}: resolving them needs the variable, not the data, so
  // without the shared data (a fresh clone) a placeholder stands in.
  const std::string env = std::getenv("MLSYS_DATA_DIR") ? "" : "MLSYS_DATA_DIR=/no-shared-data ";
  auto show = [&](const std::string& command, const char* f) {
    return test::run_shell(env + MLSYS_BINARY + std::string(" config show ") + command + " " + (test::source_dir() / f).string());
  };
  for (const char* f : {"configs/repro/schedmate/duration_accuracy.yaml", "configs/repro/schedmate/advise_philly.yaml",
                        "configs/schedmate/demo.yaml", "configs/schedmate/openai.yaml"}) {
    auto r = show("schedmate", f);
    CHECK_MESSAGE(r.exit_code == 0, f << ": " << r.err);
  }
  auto r = show("simulate", "configs/repro/schedmate/scheduling.yaml");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
}

TEST_CASE("simulate reads SchedMate's hints for every job of a VC trace (integration)") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TempDir d("smsim");
  const std::string trace = (data / "traces/philly_gavel/51b7ef.trace").string();
  const std::string tput = (data / "jobs/gavel_isolated_throughputs.csv").string();
  auto a = run_mlsys("schedmate advise --jobs " + trace + " --set schedmate.throughputs=" + tput + " --out " +
                     (d / "a").string());
  REQUIRE_MESSAGE(a.exit_code == 0, a.err);
  auto s = run_mlsys("simulate compare --set trace.path=" + trace + " --set trace.throughputs=" + tput +
                     " --set sim.cluster.kind=uniform --set sim.cluster.nodes=2 --set sim.policy=sjf"
                     " --set 'sim.compare.estimators=[hints, oracle]' --set sim.hints_file=" +
                     (d / "a/hints.csv").string() + " --out " + (d / "s").string());
  REQUIRE_MESSAGE(s.exit_code == 0, s.err);
  auto rows = csv_rows(d / "s/compare.csv");
  REQUIRE(rows.size() == 3);
  size_t col = std::find(rows[0].begin(), rows[0].end(), "hint_fallbacks") - rows[0].begin();
  REQUIRE(col < rows[0].size());
  for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i][col] == "0");  // every job id matched
}
