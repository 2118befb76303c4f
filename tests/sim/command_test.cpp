// `mlsys simulate` end to end: determinism (byte-identical outputs for the same seed, also across
// thread counts in compare mode), the hints estimator's fallback count, and clear config errors.
#include <doctest/doctest.h>

#include "sched/workload/hints.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys::test;

namespace {

std::string quiet(const std::string& args) { return args + " --set run.log_level=warn"; }

}  // namespace

TEST_CASE("simulate command: the quickstart is deterministic byte for byte") {
  TempDir t("simcmd");
  for (const char* d : {"a", "b"}) {
    auto r = run_mlsys(quiet("simulate --set tracegen.jobs=300 --set sim.policy=easy --set run.out_dir=" + (t / d).string()));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  for (const char* f : {"jobs.csv", "summary.csv", "timeseries.csv", "by_vc.csv", "jct_cdf.svg", "utilization.svg"})
    CHECK_MESSAGE(read_text(t / "a" / f) == read_text(t / "b" / f), f);
  CHECK(read_text(t / "a" / "jobs.csv").find("id,vc,gpus") == 0);
}

TEST_CASE("simulate command: compare output does not depend on the thread count") {
  TempDir t("simcmp");
  const std::string sweep = " --set tracegen.jobs=200 --set 'sim.compare.policies=[fifo,srtf,las]' --set 'sim.compare.placers=[consolidate,random]'";
  for (const char* th : {"1", "2"}) {
    auto r = run_mlsys(quiet(std::string("simulate compare") + sweep + " --set run.threads=" + th + " --set run.out_dir=" +
                             (t / th).string()));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  auto a = read_text(t / "1" / "compare.csv");
  CHECK(a == read_text(t / "2" / "compare.csv"));
  CHECK(a.find("las,random") != std::string::npos);
}

TEST_CASE("simulate command: fill mode writes its curve and table, the same on any thread count") {
  TempDir t("simfill");
  const std::string args = " --set tracegen.jobs=300 --set 'sim.compare.placers=[consolidate,fgd,random]' --set fill.order=shuffle"
                           " --set fill.repeats=2 --set fill.max_arrived_pct=120 --set fill.step_pct=10";
  for (const char* th : {"1", "3"}) {
    auto r = run_mlsys(quiet(std::string("simulate fill") + args + " --set run.threads=" + th + " --set run.out_dir=" + (t / th).string()));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  for (const char* f : {"fill.csv", "fill.txt", "unallocated.svg", "fill_fragmentation.svg"})
    CHECK_MESSAGE(read_text(t / "1" / f) == read_text(t / "3" / f), f);
  auto csv = read_text(t / "1" / "fill.csv");
  CHECK(csv.find("placer,arrived_pct,allocated_pct,unallocated_gpus,unallocated_pct,failed_pods,failed_gpus,frag_gpus") == 0);
  CHECK(csv.find("\nfgd,120,") != std::string::npos);
  CHECK(read_text(t / "1" / "fill.txt").find("unalloc%@100") != std::string::npos);
  CHECK(read_text(t / "1" / "summary.json").find("\"first_failure_pct\"") != std::string::npos);
}

TEST_CASE("simulate command: hints estimator counts jobs missing from the file") {
  TempDir t("simhints");
  // The native trace written by the generator names jobs by id; hint only two of them.
  auto g = run_mlsys(quiet("simulate generate --set tracegen.jobs=50 --set run.out_dir=" + (t / "g").string()));
  REQUIRE_MESSAGE(g.exit_code == 0, g.err);
  auto trace = read_text(t / "g" / "trace.csv");
  auto second = trace.find('\n') + 1;
  std::string id1 = trace.substr(second, trace.find(',', second) - second);
  write_text(t / "hints.csv", "job_id,predicted_duration_s,uncertainty_s,failure_action\n" + id1 + ",5,1,resubmit\n");
  auto r = run_mlsys(quiet("simulate --set sim.policy=sjf --set sim.estimator=hints --set sim.hints_file=" +
                           (t / "hints.csv").string() + " --set trace.path=" + (t / "g" / "trace.csv").string() +
                           " --set run.out_dir=" + (t / "r").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto summary = read_text(t / "r" / "summary.json");
  CHECK(summary.find("\"hint_fallbacks\": 49") != std::string::npos);
  // ... and says so on the console, once.
  const std::string line = "49 of 50 jobs are missing from the hints file";
  CHECK(r.err.find(line) != std::string::npos);
  CHECK(r.err.find(line) == r.err.rfind(line));
  write_text(t / "bad.csv", "job_id,predicted_duration_s,uncertainty_s,failure_action\n" + id1 + ",5,1,explode\n");
  auto bad = run_mlsys(quiet("simulate --set sim.estimator=hints --set sim.hints_file=" + (t / "bad.csv").string() +
                             " --set trace.path=" + (t / "g" / "trace.csv").string() + " --set run.out_dir=" +
                             (t / "bad").string()));
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("bad.csv:2:4") != std::string::npos);
}

TEST_CASE("simulate command: job ids with commas and quotes match their hints") {
  TempDir t("simhintsq");
  std::vector<mlsys::workload::JobSpec> jobs(3);
  std::vector<mlsys::workload::Hint> hints;
  const char* ids[] = {"a,1", "b \"2\"", "c"};
  for (int i = 0; i < 3; ++i) {
    jobs[i].id = ids[i];
    jobs[i].submit_time = i;
    jobs[i].duration = 100;
    jobs[i].num_gpus = 1;
    hints.push_back({ids[i], 50.0 + i, 1, mlsys::workload::FailureAction::None});
  }
  mlsys::workload::write_native_csv((t / "trace.csv").string(), jobs);
  mlsys::workload::hints_table(hints).write_csv((t / "hints.csv").string());
  auto r = run_mlsys(quiet("simulate --set sim.policy=sjf --set sim.estimator=hints --set sim.hints_file=" +
                           (t / "hints.csv").string() + " --set trace.path=" + (t / "trace.csv").string() +
                           " --set run.out_dir=" + (t / "r").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(read_text(t / "r" / "summary.json").find("\"hint_fallbacks\": 0") != std::string::npos);
  CHECK(r.err.find("missing from the hints file") == std::string::npos);
}

TEST_CASE("simulate command: unknown policy and bad topology are config errors") {
  TempDir t("simerr");
  auto r = run_mlsys("simulate --set sim.policy=fifoo --set run.out_dir=" + (t / "x").string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("fifo") != std::string::npos);
  write_text(t / "topo.yaml", "racks:\n  - {nodes: [{count: 2, gpus: 8, colour: red}]}\n");
  auto y = run_mlsys("simulate --set sim.cluster.kind=yaml --set sim.cluster.path=" + (t / "topo.yaml").string() +
                     " --set run.out_dir=" + (t / "y").string());
  CHECK(y.exit_code == 2);
  CHECK(y.err.find("topo.yaml:2") != std::string::npos);
  CHECK(y.err.find("colour") != std::string::npos);
}

TEST_CASE("simulate command: helios mode reproduces the reference sums") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TempDir t("simhelios");
  auto r = run_mlsys(quiet("simulate helios --set run.out_dir=" + (t / "h").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  auto ours = read_text(t / "h" / "helios_results.csv");
  // e.g. 11cb48 under SRTF: sum JCT 89212440, sum queue 1877500, makespan 9348533, 135 preemptions.
  CHECK(ours.find("11cb48,srtf,2000,44606.22,938.75,89212440,1877500,9348533,135") != std::string::npos);
}

TEST_CASE("simulate command: helios mode reads a cluster log and writes its per-job rows (hand-computed)") {
  // The trace of helios_compat_test's hand-computed case, read from a file (datetime submit times,
  // a user name that needs quoting) and written back through perjob/<policy>.csv: a runs 0-10 on
  // the node's 8 GPUs; b (queued 9 s) and c (queued 8 s) start together at 10.
  TempDir t("simhelios_file");
  write_text(t / "in" / "cluster_log.csv",
             "job_id,user,vc,jobname,gpu_num,state,submit_time,duration\n"
             "1,\"smith, j\",v,a,8,Pass,2017-10-01 00:00:00,10\n"
             "2,u,v,b,4,Pass,2017-10-01 00:00:01,5\n"
             "3,u,v,c,2,Failed,2017-10-01 00:00:02,3\n");
  write_text(t / "in" / "vc_config.csv", "vc,node num\nv,1\n");
  const std::string log = " --set sim.helios.cluster_log=" + (t / "in" / "cluster_log.csv").string();
  auto r = run_mlsys(quiet("simulate helios" + log + " --set 'sim.helios.policies=[fifo,sjf]' --set run.out_dir=" +
                           (t / "h").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::string header =
      "user,vc,jobname,gpu_num,state,submit_time,duration,start_time,end_time,ckpt_times,queue,jct,priority\n";
  const std::string rows =
      "\"smith, j\",v,a,8,Pass,0,10,0,10,0,0,10,-1\n"
      "u,v,b,4,Pass,1,5,10,15,0,9,14,-1\n"
      "u,v,c,2,Failed,2,3,10,13,0,8,11,-1\n";
  CHECK(read_text(t / "h" / "perjob" / "fifo.csv") == header + rows);
  CHECK(read_text(t / "h" / "perjob" / "sjf.csv") == header + rows);  // both fit at 10 anyway
  CHECK(read_text(t / "h" / "helios_results.csv").find("v,fifo,3,11.67,5.67,35,17,15,0") != std::string::npos);
  // A bad field stops the run with the file, line and column (InputError: exit 1).
  write_text(t / "in" / "cluster_log.csv",
             "job_id,user,vc,jobname,gpu_num,state,submit_time,duration\n1,u,v,a,8,Pass,2017-10-01 25:00:00,10\n");
  auto bad = run_mlsys(quiet("simulate helios" + log + " --set run.out_dir=" + (t / "bad").string()));
  CHECK(bad.exit_code == 1);
  CHECK_MESSAGE(bad.err.find("cluster_log.csv:2:7: field 'submit_time' = '2017-10-01 25:00:00'") != std::string::npos,
                bad.err);
}

TEST_CASE("simulate command: the same config and seed give the same bytes with or without MLSYS_DATA_DIR") {
  // A data folder whose runtimes file differs from the built-in table: before the default became
  // explicit (tracegen.runtimes_file: builtin), setting MLSYS_DATA_DIR switched the durations.
  TempDir t("simenv");
  std::string runtimes = "runtime\n";
  for (int i = 1; i <= 200; ++i) runtimes += std::to_string(i * 97) + "\n";
  write_text(t / "data" / "traces" / "philly_runtimes.csv", runtimes);
  const std::string args = " simulate --set tracegen.jobs=300 --set run.log_level=warn --set run.out_dir=";
  auto with = run_shell("MLSYS_DATA_DIR=" + (t / "data").string() + " " + MLSYS_BINARY + args + (t / "with").string());
  REQUIRE_MESSAGE(with.exit_code == 0, with.err);
  auto without = run_shell(std::string("env -u MLSYS_DATA_DIR ") + MLSYS_BINARY + args + (t / "without").string());
  REQUIRE_MESSAGE(without.exit_code == 0, without.err);
  for (const char* f : {"jobs.csv", "summary.csv", "timeseries.csv", "by_vc.csv", "jct_cdf.svg"})
    CHECK_MESSAGE(read_text(t / "with" / f) == read_text(t / "without" / f), f);
  // The record says where the durations came from.
  CHECK(read_text(t / "with" / "summary.json").find("\"durations\": \"builtin-quantiles\"") != std::string::npos);
  // A file named is a file used (or the run stops with exit 2).
  auto named = run_mlsys("simulate --set tracegen.jobs=300 --set run.log_level=warn --set tracegen.runtimes_file=" +
                         (t / "data" / "traces" / "philly_runtimes.csv").string() + " --set run.out_dir=" + (t / "named").string());
  REQUIRE_MESSAGE(named.exit_code == 0, named.err);
  CHECK(read_text(t / "named" / "jobs.csv") != read_text(t / "with" / "jobs.csv"));
  auto missing = run_mlsys("simulate --set tracegen.runtimes_file=" + (t / "nope.csv").string() + " --set run.out_dir=" +
                           (t / "missing").string());
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("tracegen.runtimes_file") != std::string::npos);
}
