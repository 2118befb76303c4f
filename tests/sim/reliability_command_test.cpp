// `mlsys simulate` on bad input and explicit output files (#16): errors with the file and field
// named, --lenient counts in summary.json, tracegen.out never replaced without --overwrite.
// Fixtures are written at test time.
#include <doctest/doctest.h>

#include "tests/common/test_util.hpp"

using namespace mlsys::test;

namespace {

std::string quiet(const std::string& args) { return args + " --set run.log_level=warn"; }

}  // namespace

TEST_CASE("simulate reliability: tracegen.out is not replaced without --overwrite") {
  TempDir t("genout");
  const auto out = (t / "mine.csv").string();
  write_text(t / "mine.csv", "my own file\n");
  auto r = run_mlsys(quiet("simulate generate --set tracegen.jobs=10 --set tracegen.out=" + out + " --set run.out_dir=" +
                           (t / "a").string()));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("tracegen.out") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find("--overwrite") != std::string::npos, r.err);
  CHECK(read_text(t / "mine.csv") == "my own file\n");
  auto o = run_mlsys(quiet("simulate generate --set tracegen.jobs=10 --set tracegen.out=" + out + " --set run.out_dir=" +
                           (t / "b").string() + " --overwrite"));
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  CHECK(read_text(t / "mine.csv").find("id,submit_time,duration,num_gpus") == 0);
}

TEST_CASE("simulate reliability: bad rows stop the run, or are counted in summary.json with --lenient") {
  TempDir t("lenient");
  write_text(t / "trace.csv",
             "id,submit_time,duration,num_gpus\na,0,100,1\nb,10,100,99999999999\nc,20,1e300,1\nd,30,100,2\n");
  auto strict = run_mlsys(quiet("simulate --set trace.path=" + (t / "trace.csv").string() + " --set run.out_dir=" +
                                (t / "s").string()));
  CHECK(strict.exit_code == 1);
  CHECK_MESSAGE(strict.err.find("trace.csv:3:4: field 'num_gpus' = '99999999999'") != std::string::npos, strict.err);
  auto lenient = run_mlsys(quiet("simulate --lenient --set trace.path=" + (t / "trace.csv").string() +
                                 " --set run.out_dir=" + (t / "l").string()));
  REQUIRE_MESSAGE(lenient.exit_code == 0, lenient.err);
  auto summary = read_text(t / "l" / "summary.json");
  CHECK_MESSAGE(summary.find("\"bad_rows\": 2") != std::string::npos, summary);
  CHECK(summary.find("\"jobs_kept\": 2") != std::string::npos);
}

TEST_CASE("simulate reliability: cluster files with absurd counts are errors naming the field") {
  TempDir t("clusterfile");
  write_text(t / "spec.csv", "num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n1e12,4,8,64,256\n");
  auto r = run_mlsys(quiet("simulate --set sim.cluster.kind=tiresias --set sim.cluster.path=" + (t / "spec.csv").string() +
                           " --set run.out_dir=" + (t / "r").string()));
  CHECK(r.exit_code == 1);
  CHECK_MESSAGE(r.err.find("spec.csv:2:1: field 'num_switch' = '1e12' must be in [0, 10000000]") != std::string::npos,
                r.err);
  write_text(t / "vc.csv", "vc,node num\nvc0,4294967297\n");
  auto p = run_mlsys(quiet("simulate --set sim.cluster.kind=philly --set sim.cluster.path=" + (t / "vc.csv").string() +
                           " --set run.out_dir=" + (t / "p").string()));
  CHECK(p.exit_code == 1);
  CHECK_MESSAGE(p.err.find("field 'node num'") != std::string::npos, p.err);
}

TEST_CASE("simulate reliability: a sample interval whose series would not fit is refused up front, or when reached") {
  // sim.sample_interval_s = 0.001 used to grow the series to 3.7 GB before the run died.
  TempDir t("series");
  auto r = run_mlsys(quiet("simulate --set tracegen.jobs=200 --set sim.sample_interval_s=0.001 --set run.out_dir=" +
                           (t / "a").string()));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("sim.max_samples = 1000000") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find("use sim.sample_interval_s >=") != std::string::npos, r.err);
  // The submit span allows 50 samples, the run lasts longer: the cap holds during the run too.
  auto s = run_mlsys(quiet("simulate --set tracegen.jobs=200 --set sim.sample_interval_s=600 --set sim.max_samples=50 "
                           "--set run.out_dir=" + (t / "b").string()));
  CHECK(s.exit_code == 2);
  CHECK_MESSAGE(s.err.find("reached sim.max_samples = 50") != std::string::npos, s.err);
  auto ok = run_mlsys(quiet("simulate --set tracegen.jobs=200 --set run.out_dir=" + (t / "c").string()));
  CHECK_MESSAGE(ok.exit_code == 0, ok.err);
}

TEST_CASE("simulate reliability: a device named as the trace is refused at once, a byte-order mark is read") {
  TempDir t("devices");
  auto r = run_mlsys(quiet("simulate --trace /dev/zero --set run.out_dir=" + (t / "z").string()));
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 130);
  CHECK_MESSAGE(r.err.find("/dev/zero: not a regular file") != std::string::npos, r.err);
  // A runs.csv saved by a Windows editor starts with a byte-order mark: "cannot tell the trace
  // format" before.
  write_text(t / "runs.csv", "\xEF\xBB\xBFid,submit_time,duration,num_gpus\na,0,100,1\nb,10,50,2\n");
  auto b = run_mlsys(quiet("simulate --trace " + (t / "runs.csv").string() + " --set run.out_dir=" + (t / "b").string()));
  CHECK_MESSAGE(b.exit_code == 0, b.err);
}
