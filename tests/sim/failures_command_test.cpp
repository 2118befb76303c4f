// `mlsys simulate` with failed jobs: the retry policies (none, all, SchedMate's hints) swept by
// compare, their metrics in summary.json / compare.txt / jobs.csv, and clear errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/test_util.hpp"

using namespace mlsys::test;

namespace {

std::string quiet(const std::string& args) { return args + " --set run.log_level=warn"; }

// Column `name` of each data row of a CSV without quoted commas before that column.
std::vector<std::string> column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  size_t col = 0, pos = 0;
  for (size_t c = 0; pos != std::string::npos; ++c) {
    size_t next = line.find(',', pos);
    if (line.substr(pos, next == std::string::npos ? next : next - pos) == name) col = c;
    pos = next == std::string::npos ? next : next + 1;
  }
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::string cell;
    std::istringstream row(line);
    for (size_t c = 0; c <= col && std::getline(row, cell, ','); ++c) {}
    out.push_back(cell);
  }
  return out;
}

}  // namespace

TEST_CASE("simulate command: failed jobs under no retry, blind retry and SchedMate's failure actions") {
  TempDir t("simfail");
  auto g = run_mlsys(quiet("simulate generate --set tracegen.jobs=200 --set tracegen.failed_fraction=0.3 --set run.out_dir=" +
                           (t / "g").string()));
  REQUIRE_MESSAGE(g.exit_code == 0, g.err);
  const auto trace = read_text(t / "g" / "trace.csv");
  auto ids = column(trace, "id"), states = column(trace, "state");
  REQUIRE(ids.size() == 200);
  // Failed job k: cause and SchedMate's (correct) action rotate through the four kinds.
  const char* causes[] = {"transient", "node", "memory", "persistent"};
  const char* actions[] = {"resubmit", "resubmit_exclude_node", "resubmit_more_memory", "do_not_retry"};
  std::string hints = "job_id,predicted_duration_s,uncertainty_s,failure_action\n", truth = "job_id,cause\n";
  int failed = 0, persistent = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (states[i] != "failed") continue;
    const int k = failed++ % 4;
    persistent += k == 3;
    hints += ids[i] + ",100,10," + actions[k] + "\n";
    truth += ids[i] + "," + causes[k] + "\n";
  }
  REQUIRE(failed > 20);
  write_text(t / "hints.csv", hints);
  write_text(t / "causes.csv", truth);
  const std::string files = " --set trace.path=" + (t / "g" / "trace.csv").string() + " --set sim.hints_file=" +
                            (t / "hints.csv").string() + " --set sim.retry.causes_file=" + (t / "causes.csv").string();
  for (const char* th : {"1", "2"}) {
    auto r = run_mlsys(quiet("simulate compare --set 'sim.compare.retry_policies=[none,all,hints]' --set sim.retry.max_retries=2" +
                             files + " --set run.threads=" + th + " --set run.out_dir=" + (t / th).string()));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  const auto csv = read_text(t / "1" / "compare.csv");
  CHECK(csv == read_text(t / "2" / "compare.csv"));
  auto policy = column(csv, "retry_policy"), recovered = column(csv, "recovered"), abandoned = column(csv, "abandoned"),
       wasted = column(csv, "wasted_gpu_h"), failed_jobs = column(csv, "failed_jobs");
  REQUIRE(policy == std::vector<std::string>{"none", "all", "hints"});
  for (const auto& f : failed_jobs) CHECK(f == std::to_string(failed));
  CHECK(abandoned[0] == std::to_string(failed));               // no retry: every failed job is lost
  CHECK(abandoned[2] == std::to_string(persistent));           // hints: only the do_not_retry ones
  CHECK(std::stod(wasted[1]) > std::stod(wasted[2]));          // blind retries of bugs and OOMs waste more
  CHECK(std::stod(wasted[2]) == doctest::Approx(std::stod(wasted[0])).epsilon(1e-3));  // hints: no retry fails
  CHECK(std::stoi(recovered[2]) >= std::stoi(recovered[1]));
  CHECK(read_text(t / "1" / "compare.txt").find("wasted_gpu_h") != std::string::npos);
  auto summary = read_text(t / "1" / "summary.json");
  CHECK(summary.find("\"not_retried\"") != std::string::npos);
  // One run: jobs.csv says how each job ended.
  auto one = run_mlsys(quiet("simulate --set sim.retry.policy=hints" + files + " --set run.out_dir=" + (t / "one").string()));
  REQUIRE_MESSAGE(one.exit_code == 0, one.err);
  auto outcomes = column(read_text(t / "one" / "jobs.csv"), "outcome");
  CHECK(std::count(outcomes.begin(), outcomes.end(), "not_retried") == persistent);
  CHECK(std::count(outcomes.begin(), outcomes.end(), "recovered") == failed - persistent);
}

TEST_CASE("simulate command: failure configuration errors name the key or the file position") {
  TempDir t("simfailerr");
  auto g = run_mlsys(quiet("simulate generate --set tracegen.jobs=20 --set tracegen.failed_fraction=0.5 --set run.out_dir=" +
                           (t / "g").string()));
  REQUIRE_MESSAGE(g.exit_code == 0, g.err);
  const std::string trace = " --set trace.path=" + (t / "g" / "trace.csv").string();
  auto no_hints = run_mlsys(quiet("simulate --set sim.retry.policy=hints" + trace + " --set run.out_dir=" + (t / "a").string()));
  CHECK(no_hints.exit_code == 2);
  CHECK(no_hints.err.find("sim.hints_file") != std::string::npos);
  auto ids = column(read_text(t / "g" / "trace.csv"), "id");
  write_text(t / "causes.csv", "job_id,cause\n" + ids[0] + ",gremlins\n");
  auto bad = run_mlsys(quiet("simulate --set sim.retry.policy=all --set sim.retry.causes_file=" + (t / "causes.csv").string() +
                             trace + " --set run.out_dir=" + (t / "b").string()));
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("causes.csv:2:2") != std::string::npos);
  CHECK(bad.err.find("transient, node, memory, persistent") != std::string::npos);
  auto bad_key = run_mlsys(quiet("simulate --set sim.retry.policy=sometimes" + trace + " --set run.out_dir=" + (t / "c").string()));
  CHECK(bad_key.exit_code == 2);
}
