// Every trace reader on small hand-written fixtures: parsed values, bad rows with exact
// line/column, lenient counts, format detection.
#include <doctest/doctest.h>

#include <map>

#include "core/util/error.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/openb_nodes.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/sched/workload/traces/fixture_path.hpp"

using namespace mlsys;
using namespace mlsys::workload;
using mlsys::workload::test::fixture;

namespace {

TraceOptions opts_for(const std::string& file, const std::string& format = "auto") {
  TraceOptions o;
  o.path = fixture(file);
  o.format = format;
  o.throughputs = fixture("throughputs.csv");
  return o;
}

std::string error_of(const TraceOptions& o) {
  try {
    read_trace(o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("helios reader: datetimes relative to midnight of the first row, duration fallback") {
  auto t = read_trace(opts_for("helios_cluster_log.csv"));
  REQUIRE(t.jobs.size() == 4);
  CHECK(t.summary.formats[0] == "helios");
  const auto& j = t.jobs;
  CHECK(j[0].id == "j1");
  CHECK(j[0].submit_time == 36000);
  CHECK(j[0].duration == 3600);
  CHECK(j[0].num_gpus == 8);
  CHECK(j[0].cpu_milli == 32000);
  CHECK(j[0].vc == "vcX");
  CHECK(j[0].user == "uA");
  CHECK(j[0].name == "train-a");
  CHECK(j[1].state == JobState::Failed);
  CHECK(j[1].submit_time == 37800);
  CHECK(j[2].duration == 30);  // empty duration column: end - start
  CHECK(j[2].submit_time == 86410);
  CHECK(j[2].state == JobState::Killed);
  CHECK(j[3].submit_time == 129600);
  CHECK(j[3].num_gpus == 16);
  for (size_t i = 0; i < j.size(); ++i) CHECK(j[i].index == static_cast<int64_t>(i));
}

TEST_CASE("helios reader: explicit time origin") {
  auto o = opts_for("helios_cluster_log.csv");
  o.time_origin = "2020-04-01 09:00:00";
  auto t = read_trace(o);
  CHECK(t.jobs[0].submit_time == 3600);
}

TEST_CASE("helios reader: bad rows name file, line and column, lenient counts them") {
  auto o = opts_for("helios_bad_cluster_log.csv");
  std::string e = error_of(o);
  CHECK(contains(e, "helios_bad_cluster_log.csv:4:6: field 'submit_time' = '2020-04-01 25:00:00'"));
  CHECK(contains(e, "--lenient"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 3);
  CHECK(t.summary.rows_read == 5);
  CHECK(t.summary.bad_rows == 2);
  CHECK(t.summary.bad_reasons.at("submit_time: not a date-time 'YYYY-MM-DD HH:MM:SS'") == 1);
  CHECK(t.summary.bad_reasons.at("gpu_num: not an integer") == 1);
  REQUIRE(t.summary.bad_examples.size() == 2);
  CHECK(contains(t.summary.bad_examples[1], ":5:4: field 'gpu_num' = 'x'"));
  CHECK(contains(t.summary.to_line(), "skipped 2 bad rows"));
}

TEST_CASE("philly reader: attempts summed, GPUs of the largest attempt, unfinished jobs skipped") {
  auto t = read_trace(opts_for("philly_cluster_job_log.json"));
  CHECK(t.summary.formats[0] == "philly");
  CHECK(t.summary.rows_read == 4);
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].id == "application_1_0001");
  CHECK(t.jobs[0].submit_time == 7200);
  CHECK(t.jobs[0].duration == 900);
  CHECK(t.jobs[0].num_gpus == 8);
  CHECK(t.jobs[0].user == "alice");
  CHECK(t.jobs[0].state == JobState::Completed);
  CHECK(t.jobs[1].duration == 1800);
  CHECK(t.jobs[1].num_gpus == 1);
  CHECK(t.jobs[1].state == JobState::Killed);
  CHECK(t.summary.skipped.at("philly job without a finished attempt") == 2);
}

TEST_CASE("philly reader: a bad job names its line and column, lenient skips it") {
  auto o = opts_for("philly_bad_cluster_job_log.json");
  CHECK(contains(error_of(o), "philly_bad_cluster_job_log.json:4:3: field 'submitted_time' = 'yesterday'"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 2);
  CHECK(t.summary.bad_rows == 1);
}

TEST_CASE("pai2020 reader: job table joined with task demands") {
  for (std::string start : {"pai_job_table.csv", "pai_task_table.csv"}) {
    CAPTURE(start);
    auto t = read_trace(opts_for(start));
    CHECK(t.summary.formats[0] == "pai2020");
    REQUIRE(t.jobs.size() == 3);
    const auto& a = t.jobs[0];
    CHECK(a.id == "job1");
    CHECK(a.num_gpus == 2);
    CHECK(a.gpu_milli == 1000);
    CHECK(a.cpu_milli == 14000);
    CHECK(a.memory_mib == 70240);
    CHECK(a.duration == 990);
    CHECK(a.gpu_type == "V100");
    CHECK(t.jobs[1].num_gpus == 1);
    CHECK(t.jobs[1].gpu_milli == 500);
    CHECK(t.jobs[1].duration == 90);
    CHECK(t.jobs[2].num_gpus == 8);
    CHECK(t.jobs[2].memory_mib == 65536);
    CHECK(t.jobs[2].duration == 800);
    if (start == "pai_job_table.csv") {
      CHECK(a.submit_time == 1000);
      CHECK(a.user == "userA");
      CHECK(t.jobs[1].state == JobState::Failed);
      CHECK(t.summary.skipped.at("pai job without an end time") == 1);
    }
  }
}

TEST_CASE("openb reader: fractional GPUs, CPU-only pods, pending pods") {
  auto t = read_trace(opts_for("openb_pod_list.csv"));
  CHECK(t.summary.formats[0] == "openb");
  REQUIRE(t.jobs.size() == 5);
  const auto& j = t.jobs;
  CHECK(j[0].duration == 1000);
  CHECK(j[1].gpu_milli == 460);
  CHECK(j[1].duration == 550);
  CHECK(j[1].cpu_milli == 6000);
  CHECK(j[1].memory_mib == 12288);
  CHECK(j[2].num_gpus == 0);
  CHECK(j[2].state == JobState::Failed);
  CHECK(j[3].num_gpus == 8);
  CHECK(j[3].gpu_type == "V100M16|V100M32");
  CHECK(j[3].duration == 4680);
  CHECK(j[4].duration == 500);  // never scheduled: deletion - creation
  CHECK(j[4].state == JobState::Unknown);
  int64_t milli = 0;
  for (const auto& x : j) milli += static_cast<int64_t>(x.num_gpus) * x.gpu_milli;
  CHECK(milli == 9710);
}

TEST_CASE("openb reader: bad rows") {
  auto o = opts_for("openb_bad_pod_list.csv");
  CHECK(contains(error_of(o), "openb_bad_pod_list.csv:3:5: field 'gpu_milli' = '1460'"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 1);
  CHECK(t.summary.bad_rows == 3);
  CHECK(t.summary.bad_reasons.at("memory_mib: must be >= 0") == 1);
  CHECK(t.summary.bad_reasons.at("deletion_time: deletion_time before scheduled_time") == 1);
}

TEST_CASE("openb node list") {
  auto nodes = read_openb_nodes(fixture("openb_node_list.csv"));
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[1].gpus == 8);
  CHECK(nodes[1].gpu_model == "V100M32");
  CHECK(nodes[1].memory_mib == 786432);
  CHECK(nodes[2].gpus == 0);
}

TEST_CASE("gavel reader: durations from throughputs, Helios rounding and fallbacks") {
  auto t = read_trace(opts_for("vcA.trace"));
  CHECK(t.summary.formats[0] == "gavel");
  REQUIRE(t.jobs.size() == 5);
  const auto& j = t.jobs;
  CHECK(j[0].id == "vcA-00000");
  CHECK(j[0].vc == "vcA");
  CHECK(j[0].user == "vcA");
  CHECK(j[0].name == "ResNet-18 (batch size 16)");
  CHECK(j[0].command == "cd %s && python3 main.py --batch_size 16");
  CHECK(j[0].total_steps == 1005);
  CHECK(j[0].gpu_type.empty());  // trace.gpu_type sets durations only; the job runs on any type
  CHECK(j[0].duration == 101);  // 100.5 rounds half up
  CHECK(j[1].duration == 3);    // 10 / 3
  CHECK(j[2].duration == 63);   // scale 2 measured: 1000 / 16 = 62.5
  CHECK(j[2].num_gpus == 2);
  CHECK(j[3].duration == 13);   // scale 4 missing: 4 x 4 steps/s; 200 / 16 = 12.5
  CHECK(j[4].duration == 1);    // at least one second
  CHECK(j[4].submit_time == 12);
  CHECK(j[4].id == "vcA-00004");
}

TEST_CASE("gavel reader: gpu_type selects the throughputs, a missing job type is a bad row") {
  auto o = opts_for("vcA.trace");
  o.gpu_type = "k80";
  CHECK(contains(error_of(o), "vcA.trace:4:1: field 'job_type' = 'CycleGAN': no throughput"));
  o.lenient = true;
  auto t = read_trace(o);
  REQUIRE(t.jobs.size() == 4);
  CHECK(t.jobs[0].duration == 503);  // 1005 / 2 = 502.5
  CHECK(t.jobs[2].duration == 250);  // scale 2 from 2 x 2 steps/s
  o.gpu_type = "a100";
  CHECK_THROWS_AS(read_trace(o), ConfigError);
}

TEST_CASE("gavel reader: bad rows") {
  auto o = opts_for("vcBad.trace");
  CHECK(contains(error_of(o), "vcBad.trace:2:5: field 'total_steps' = 'many': not an integer"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 1);
  CHECK(t.summary.bad_rows == 4);
  CHECK(t.summary.bad_reasons.at("expected 7 fields, found 5") == 1);
  CHECK(t.summary.bad_reasons.at("scale_factor: must be >= 1") == 1);
  CHECK(contains(t.summary.bad_examples[2], "vcBad.trace:4:6: expected 7 fields"));
}

TEST_CASE("gavel reader: missing throughputs file is a clear error") {
  auto o = opts_for("vcA.trace");
  o.throughputs = fixture("no_such_throughputs.csv");
  CHECK_THROWS_WITH_AS(read_trace(o), doctest::Contains("no such file"), ConfigError);
}

TEST_CASE("gavel_physical reader: 10-field traces") {
  auto t = read_trace(opts_for("physical.trace"));
  CHECK(t.summary.formats[0] == "gavel_physical");
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].duration == 20);
  CHECK(t.jobs[1].duration == 10);
  CHECK(t.jobs[1].submit_time == 120);
  CHECK(t.jobs[1].command == "python main.py --cuda");
}

TEST_CASE("tiresias reader") {
  auto t = read_trace(opts_for("tiresias_jobs.csv"));
  CHECK(t.summary.formats[0] == "tiresias");
  REQUIRE(t.jobs.size() == 3);
  CHECK(t.jobs[1].num_gpus == 8);
  CHECK(t.jobs[1].submit_time == 30);
  CHECK(t.jobs[1].duration == 147);
  CHECK(t.jobs[1].total_steps == 133);
  CHECK(t.jobs[1].name == "vgg11");
}

TEST_CASE("native reader: quoting, optional columns, stable order on ties") {
  auto t = read_trace(opts_for("native.csv"));
  CHECK(t.summary.formats[0] == "native");
  REQUIRE(t.jobs.size() == 4);
  const auto& j = t.jobs;
  CHECK(j[0].command == "python train.py --lr=0.1,0.2");
  CHECK(j[0].gpu_type == "V100");
  CHECK(j[0].memory_mib == 8192);
  CHECK(j[1].id == "n2");
  CHECK(j[1].state == JobState::Failed);
  CHECK(j[2].id == "n3");
  CHECK(j[2].name == "name with \"quotes\"");
  CHECK(j[2].gpu_milli == 500);
  CHECK(j[2].state == JobState::Killed);
  CHECK(j[3].num_gpus == 0);
}

TEST_CASE("native reader: bad rows") {
  auto o = opts_for("native_bad.csv");
  CHECK(contains(error_of(o), "native_bad.csv:3:2: field 'duration' = '-5': must be >= 0"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 2);
  CHECK(t.summary.bad_reasons.at("unclosed quote") == 1);
}

TEST_CASE("native CSV round trip keeps every field") {
  auto t = read_trace(opts_for("native.csv"));
  mlsys::test::TempDir dir("native");
  std::string out = (dir / "rt.csv").string();
  write_native_csv(out, t.jobs);
  TraceOptions o;
  o.path = out;
  auto back = read_trace(o);
  REQUIRE(back.jobs.size() == t.jobs.size());
  for (size_t i = 0; i < t.jobs.size(); ++i) {
    const auto &a = t.jobs[i], &b = back.jobs[i];
    CHECK(a.id == b.id);
    CHECK(a.submit_time == b.submit_time);
    CHECK(a.duration == b.duration);
    CHECK(a.num_gpus == b.num_gpus);
    CHECK(a.gpu_milli == b.gpu_milli);
    CHECK(a.cpu_milli == b.cpu_milli);
    CHECK(a.memory_mib == b.memory_mib);
    CHECK(a.user == b.user);
    CHECK(a.vc == b.vc);
    CHECK(a.name == b.name);
    CHECK(a.state == b.state);
    CHECK(a.gpu_type == b.gpu_type);
    CHECK(a.total_steps == b.total_steps);
    CHECK(a.command == b.command);
  }
}

TEST_CASE("every registered reader is detected on its fixture and reads it") {
  const std::map<std::string, std::pair<std::string, size_t>> cases{
      {"helios", {"helios_cluster_log.csv", 4}},   {"philly", {"philly_cluster_job_log.json", 2}},
      {"pai2020", {"pai_job_table.csv", 3}},       {"openb", {"openb_pod_list.csv", 5}},
      {"gavel", {"vcA.trace", 5}},                 {"gavel_physical", {"physical.trace", 2}},
      {"tiresias", {"tiresias_jobs.csv", 3}},      {"native", {"native.csv", 4}},
      {"slurm", {"slurm_sacct.txt", 5}},
      {"mlperf", {"mlperf_runs.csv", 4}},
      {"mlperf_log", {"mlperf_logs/v0.7/NVIDIA/results/dgx1_ngc20.06_pytorch/bert/result_9.txt", 1}}};
  for (const auto* e : trace_reader_registry().entries()) {
    CAPTURE(e->name);
    CHECK(!e->description.empty());
    auto it = cases.find(e->name);
    REQUIRE_MESSAGE(it != cases.end(), "add a fixture for reader " << e->name);
    CHECK(detect_trace_format(fixture(it->second.first)) == e->name);
    auto t = read_trace(opts_for(it->second.first, e->name));  // explicit format override
    CHECK(t.jobs.size() == it->second.second);
  }
  CHECK(trace_reader_registry().names().size() == cases.size());
}

TEST_CASE("format override and unknown formats") {
  auto o = opts_for("tiresias_jobs.csv", "native");
  CHECK_THROWS_AS(read_trace(o), InputError);  // missing native columns, named at the header
  o.format = "nosuch";
  CHECK_THROWS_AS(read_trace(o), ConfigError);
  CHECK(detect_trace_format(fixture("throughputs.csv")).empty());
}

TEST_CASE("bad rows in the tiresias, pai2020 and gavel_physical readers") {
  auto o = opts_for("tiresias_bad.csv", "tiresias");
  CHECK(contains(error_of(o), "tiresias_bad.csv:3:2: field 'num_gpu' = '-1': must be >= 0"));
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 1);
  CHECK(t.summary.bad_reasons.at("duration: not a number") == 1);

  o = opts_for("pai_task_table_bad.csv", "pai2020");
  CHECK(contains(error_of(o), "pai_task_table_bad.csv:2:9: field 'plan_gpu' = 'abc': not a number"));
  o.lenient = true;
  t = read_trace(o);
  REQUIRE(t.jobs.size() == 1);
  CHECK(t.jobs[0].id == "jobA");
  CHECK(t.summary.bad_reasons.at("expected 10 fields, found 6") == 1);

  o = opts_for("physical_bad.trace", "gavel_physical");
  CHECK(contains(error_of(o), "physical_bad.trace:1:10: expected 10 fields, found 9"));
  o.lenient = true;
  CHECK(read_trace(o).jobs.size() == 1);
}

TEST_CASE("philly reader: JSON Lines, detected from the first line") {
  auto t = read_trace(opts_for("philly_jobs.jsonl"));
  CHECK(t.summary.formats[0] == "philly");
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].duration == 100);
  CHECK(t.jobs[0].num_gpus == 2);
  CHECK(t.jobs[1].submit_time == 5);
  CHECK(t.jobs[1].num_gpus == 0);
  CHECK(t.jobs[1].state == JobState::Failed);
}

TEST_CASE("slurm reader: sacct --parsable2 columns, steps and unfinished jobs skipped") {
  auto t = read_trace(opts_for("slurm_sacct.txt"));
  CHECK(t.summary.formats[0] == "slurm");
  REQUIRE(t.jobs.size() == 5);
  CHECK(t.summary.skipped.at("job step") == 2);
  CHECK(t.summary.skipped.at("never started") == 1);
  const auto& a = t.jobs[0];
  CHECK(a.id == "1001");
  CHECK(a.name == "train_resnet");
  CHECK(a.user == "alice");
  CHECK(a.vc == "visionlab");             // Account (Partition when empty)
  CHECK(a.submit_time == 8 * 3600);       // time 0 = midnight of the first day
  CHECK(a.duration == 7200);              // ElapsedRaw
  CHECK(a.num_gpus == 4);                 // AllocTRES gres/gpu
  CHECK(a.gpu_type == "a100");            // the one typed gres/gpu entry
  CHECK(a.cpu_milli == 32000);
  CHECK(a.memory_mib == 256 * 1024);
  CHECK(a.state == JobState::Completed);
  CHECK(t.jobs[1].num_gpus == 16);
  CHECK(t.jobs[1].memory_mib == 1024 * 1024);
  CHECK(t.jobs[1].state == JobState::Failed);  // TIMEOUT
  CHECK(t.jobs[2].num_gpus == 0);              // a CPU job
  CHECK(t.jobs[2].memory_mib == 32000);
  CHECK(t.jobs[2].state == JobState::Killed);  // "CANCELLED by 1234"
  CHECK(t.jobs[3].id == "1005_3");             // an array task keeps its id
  CHECK(t.jobs[3].gpu_type == "v100");
  CHECK(t.jobs[4].state == JobState::Failed);  // OUT_OF_MEMORY
}

TEST_CASE("slurm reader: Elapsed and GRES columns of older sacct, bad rows named") {
  mlsys::test::TempDir d("slurm");
  mlsys::test::write_text(d / "old.txt",
                          "JobID|User|Partition|Submit|Elapsed|State|ReqGRES|AllocCPUS|ReqMem\n"
                          "7|u|p100q|2020-01-02 00:00:00|1-02:03:04|COMPLETED|gpu:p100:2(IDX:0-1)|8|4000Mn\n"
                          "8|u|p100q|2020-01-02 01:00:00|05:00|COMPLETED|gpu:1|2|2G\n"
                          "9|u|p100q|2020-01-02 02:00:00|soon|COMPLETED|gpu:1|2|2G\n"
                          "10|u|p100q|2020-01-02 03:00:00|00:10|COMPLETED|gpu:many|2|2G\n");
  TraceOptions o;
  o.path = (d / "old.txt").string();
  CHECK(contains(error_of(o), "old.txt:4:5: field 'elapsed' = 'soon': not a duration"));
  o.lenient = true;
  auto t = read_trace(o);
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.summary.bad_rows == 2);
  CHECK(t.jobs[0].duration == 86400 + 2 * 3600 + 3 * 60 + 4);
  CHECK(t.jobs[0].num_gpus == 2);
  CHECK(t.jobs[0].gpu_type == "p100");
  CHECK(t.jobs[0].vc == "p100q");
  CHECK(t.jobs[0].cpu_milli == 8000);
  CHECK(t.jobs[0].memory_mib == 4000);
  CHECK(t.jobs[1].duration == 300);
  CHECK(t.jobs[1].num_gpus == 1);
  CHECK(t.jobs[1].submit_time == 3600);
}
