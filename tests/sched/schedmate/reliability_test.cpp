// SchedMate on bad servers and bad input, through the real binary (issues 13 and 16): a dead,
// malformed, silent or failing LLM server never fails or stalls a run and is reported in one
// warning line; @file references stay in their folder and never read devices; logs that are
// devices, huge or not UTF-8 give clear errors or valid output with bounded memory.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>

#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "tests/common/test_util.hpp"
#include "tests/sched/schedmate/analyzer/fake_llm_server.hpp"

using namespace mlsys;
using mlsys::schedmate::test::FakeLlmServer;
using mlsys::schedmate::test::ScriptedReply;
using mlsys::test::read_text;
using mlsys::test::run_mlsys;
using mlsys::test::TempDir;
using mlsys::test::write_text;

namespace {

std::string logs_fixture() {
  return (test::source_dir() / "tests/sched/schedmate/fixtures").string();
}

// Lines of `text` that contain `part`.
int lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  for (const auto& l : schedmate::split_lines(text)) n += l.find(part) != std::string::npos;
  return n;
}

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("diagnose with a dead or malformed LLM server: exit 0, one warning with the fallback count, embedded results") {
  TempDir d("smllm");
  write_text(d / "logs/oom.log", "step 1/10\nRuntimeError: CUDA out of memory. Tried to allocate 2 GiB\n");
  write_text(d / "logs/ok.log", "step 1/2\nstep 2/2\n");
  auto ref = run_mlsys("schedmate diagnose --log " + (d / "logs").string() + " --out " + (d / "ref").string());
  REQUIRE_MESSAGE(ref.exit_code == 0, ref.err);
  CHECK(lines_with(ref.err, "warn") == 0);
  FakeLlmServer malformed;
  malformed.set_responder([](const std::string&) { return ScriptedReply{200, "<html>not json</html>", 0, false, false}; });
  for (const std::string& url : {std::string("http://127.0.0.1:1/v1/chat/completions"), malformed.url()}) {
    CAPTURE(url);
    const std::string out = (d / ("o" + std::to_string(url.size()))).string();
    auto r = run_mlsys("schedmate diagnose --analyzer openai --set schedmate.openai.url=" + url + " --set schedmate.openai.timeout_s=1 --log " +
                       (d / "logs").string() + " --out " + out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(lines_with(r.err, "warn") == 1);
    CHECK(lines_with(r.err, "2 answer(s) came from the embedded analyzer") == 1);
    CHECK(read_text(out + "/diagnoses.csv") == read_text(d / "ref/diagnoses.csv"));
    Json s = Json::parse(read_text(out + "/summary.json"));
    CHECK(s.find("analyzer")->find("fallbacks")->as_int() == 2);
  }
}

TEST_CASE("a silent server cannot hold the demo past the LLM budget, a failing one does not multiply run time") {
  TempDir d("smllmbudget");
  double embedded = 0;
  embedded = seconds_of([&] { REQUIRE(run_mlsys("schedmate -q --out " + (d / "e").string()).exit_code == 0); });
  FakeLlmServer silent;
  silent.set_responder([](const std::string&) { return ScriptedReply{200, "", 600000, false, false}; });
  const double t_silent = seconds_of([&] {
    auto r = run_mlsys("schedmate -q --analyzer openai --set schedmate.openai.url=" + silent.url() +
                       " --set schedmate.openai.timeout_s=0.5 --set schedmate.openai.max_total_s=2 --out " + (d / "s").string());
    CHECK_MESSAGE(r.exit_code == 0, r.err);
  });
  CHECK(t_silent < embedded + 8);
  FakeLlmServer failing;
  failing.set_responder([](const std::string&) { return ScriptedReply{500, "{\"error\":\"internal\"}", 0, false, false}; });
  const double t_failing = seconds_of([&] {
    auto r = run_mlsys("schedmate -q --analyzer openai --set schedmate.openai.url=" + failing.url() + " --out " + (d / "f").string());
    CHECK_MESSAGE(r.exit_code == 0, r.err);
  });
  CHECK(t_failing < embedded + 5);
  CHECK(failing.request_count() <= 9);  // three questions, three attempts each, then given up
  // Same results as the embedded analyzer.
  CHECK(read_text(d / "f/predictions.csv") == read_text(d / "e/predictions.csv"));
}

TEST_CASE("@file scripts stay in the jobs file's folder and are never devices or /proc files") {
  TempDir d("smatfile");
  write_text(d / "jobs/train.py", "batch_size = 64\n");
  auto job = [&](const std::string& script) {
    write_text(d / "jobs/jobs.jsonl", "{\"id\":\"a\",\"command\":\"python train.py\",\"script\":\"" + script +
                                          "\",\"submit_time\":0,\"duration\":100}\n");
    return run_mlsys("schedmate advise --jobs " + (d / "jobs/jobs.jsonl").string() + " --out " + (d / "o").string() +
                     " --overwrite");
  };
  auto ok = job("@train.py");
  CHECK_MESSAGE(ok.exit_code == 0, ok.err);
  for (const std::string bad : {"@/etc/passwd", "@../../../../etc/passwd", "@/dev/zero", "@/proc/self/environ"}) {
    CAPTURE(bad);
    auto r = job(bad);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("outside") != std::string::npos);
  }
  // Inside the allowed folder but a device (a symlink to /dev/zero): not a regular file.
  std::filesystem::create_symlink("/dev/zero", d / "jobs/zero.py");
  auto dev = job("@zero.py");
  CHECK(dev.exit_code != 0);
  CHECK((dev.err.find("not a regular file") != std::string::npos || dev.err.find("outside") != std::string::npos));
}

TEST_CASE("--log /dev/zero, a huge log and invalid UTF-8: clear errors or valid JSONL, bounded memory") {
  TempDir d("smbadlog");
  auto zero = run_mlsys("schedmate diagnose --log /dev/zero --out " + (d / "z").string());
  CHECK(zero.exit_code != 0);
  CHECK(zero.err.find("not a regular file") != std::string::npos);
  write_text(d / "big.log", std::string(3000, 'x') + "\n");
  auto big = run_mlsys("schedmate diagnose --log " + (d / "big.log").string() + " --set schedmate.limits.max_log_bytes=1000 --out " +
                       (d / "b").string());
  CHECK(big.exit_code != 0);
  CHECK(big.err.find("schedmate.limits.max_log_bytes") != std::string::npos);
  // Invalid UTF-8 and a very long line: cut, replaced, and the JSONL output stays valid.
  write_text(d / "bad.log", "step 1/10\n\xff\xfe RuntimeError: CUDA out of memory \xc3\x28 \xed\xa0\x80\n" + std::string(200000, 'y') + "\n");
  auto bad = run_mlsys("schedmate diagnose --log " + (d / "bad.log").string() + " --out " + (d / "u").string());
  REQUIRE_MESSAGE(bad.exit_code == 0, bad.err);
  const std::string jsonl = read_text(d / "u/diagnoses.jsonl");
  CHECK(schedmate::valid_utf8(jsonl) == jsonl);
  Json j = Json::parse(schedmate::split_lines(jsonl)[0]);
  CHECK(j.find("category")->as_string() == "user/gpu_oom");
  CHECK(j.find("evidence")->as_string().find("\xEF\xBF\xBD") != std::string::npos);
  Json s = Json::parse(read_text(d / "u/summary.json"));
  CHECK(s.find("inputs")->find("cut_lines")->as_int() == 1);
}

TEST_CASE("curator annotations are not evidence unless asked for") {
  TempDir d("smannot");
  write_text(d / "a.log", "# LABEL: user/gpu_oom (CUDA out of memory)\nstep 1/10\nstep 2/10\n");
  auto r = run_mlsys("schedmate diagnose --log " + (d / "a.log").string() + " --out " + (d / "o").string());
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(read_text(d / "o/diagnoses.csv").find("user/gpu_oom") == std::string::npos);
  auto k = run_mlsys("schedmate diagnose --log " + (d / "a.log").string() + " --set schedmate.annotations=read --out " +
                     (d / "k").string());
  REQUIRE(k.exit_code == 0);
  CHECK(read_text(d / "k/diagnoses.csv").find("user/gpu_oom") != std::string::npos);
  (void)logs_fixture;
}
