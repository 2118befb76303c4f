// The MLPerf readers (runs.csv and raw :::MLLOG result logs) on hand-written fixtures, the
// accelerator names they understand, and the MLLOG line parser; plus the shared data set.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <vector>

#include "core/util/error.hpp"
#include "sched/workload/traces/mlperf.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/common/test_util.hpp"
#include "tests/sched/workload/traces/fixture_path.hpp"

using namespace mlsys;
using namespace mlsys::workload;
using mlsys::workload::test::fixture;

namespace {
const char* kLog = "mlperf_logs/v0.7/NVIDIA/results/dgx1_ngc20.06_pytorch/bert/result_9.txt";

std::map<std::string, JobSpec> by_id(const std::vector<JobSpec>& jobs) {
  std::map<std::string, JobSpec> m;
  for (const auto& j : jobs) m[j.id] = j;
  return m;
}
}  // namespace

TEST_CASE("mlperf reader: one job per run, facts in the command, unplaceable rows counted") {
  TraceOptions o;
  o.path = fixture("mlperf_runs.csv");
  auto t = read_trace(o);
  CHECK(t.summary.formats[0] == "mlperf");
  REQUIRE(t.jobs.size() == 4);
  CHECK(t.summary.rows_read == 7);
  CHECK(t.summary.skipped.at("no duration (log not available or without run_stop)") == 1);
  CHECK(t.summary.skipped.at("no start time") == 1);
  CHECK(t.summary.skipped.at("start time not in epoch milliseconds") == 1);
  auto m = by_id(t.jobs);
  const JobSpec& bert = m.at("v0.7/NVIDIA/dgxa100_n32_ngc20.06_pytorch/bert/0");
  CHECK(bert.user == "NVIDIA");
  CHECK(bert.name == "dgxa100_n32_ngc20.06_pytorch/bert");
  CHECK(bert.num_gpus == 256);
  CHECK(bert.gpu_type == "a100");
  CHECK(bert.duration == doctest::Approx(194.692));
  CHECK(bert.state == JobState::Completed);
  CHECK(bert.command ==
        "mlperf benchmark=bert framework=\"PyTorch NVIDIA "
        "Release 20.06\" system=dgxa100_n32_ngc20.06_pytorch accelerator=a100 accelerators=256 submitter=NVIDIA "
        "round=v0.7");
  // Submit times: seconds since midnight UTC of the first run's day (2020-06-24), fractions kept.
  CHECK(bert.submit_time == doctest::Approx(1592976259.108 - 1592956800));
  const JobSpec& tpu = m.at("v0.7/Google/tpu-v4-16-TF/resnet/0");
  CHECK(tpu.submit_time == doctest::Approx(1592970830.0005 - 1592956800));
  CHECK(tpu.gpu_type == "tpu-v4");
  CHECK(tpu.num_gpus == 8);
  // No accelerators column: the count the system name states.
  const JobSpec& ali = m.at("v0.7/Alibaba/v100-1280/resnet/1");
  CHECK(ali.num_gpus == 1280);
  CHECK(ali.gpu_type == "v100");
  CHECK(ali.state == JobState::Failed);
  const JobSpec& cpu = m.at("v0.7/Intel/1-node-8s-cpx-1-tensorflow/resnet/1");
  CHECK(cpu.num_gpus == 0);
  CHECK(cpu.gpu_type == "cpu");
}

TEST_CASE("mlperf reader: bad rows name line and field, lenient counts them") {
  TraceOptions o;
  o.path = fixture("mlperf_runs_bad.csv");
  std::string err;
  try {
    read_trace(o);
  } catch (const InputError& e) {
    err = e.what();
  }
  CHECK(err.find("mlperf_runs_bad.csv:3:6: field 'accelerators' = 'eight': not an integer") != std::string::npos);
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.jobs.size() == 1);
  CHECK(t.summary.bad_rows == 3);
  CHECK(t.summary.bad_reasons.at("duration_s: must be >= 0") == 1);
  CHECK(t.summary.bad_reasons.at("accelerators: more than 1,000,000 accelerators") == 1);
}

TEST_CASE("mlperf_log reader: a raw result log is the same job as its runs.csv row") {
  TraceOptions o;
  o.path = fixture(kLog);
  auto t = read_trace(o);
  CHECK(t.summary.formats[0] == "mlperf_log");
  REQUIRE(t.jobs.size() == 1);
  const JobSpec& j = t.jobs[0];
  CHECK(j.id == "v0.7/NVIDIA/dgx1_ngc20.06_pytorch/bert/9");
  CHECK(j.name == "dgx1_ngc20.06_pytorch/bert");
  CHECK(j.user == "NVIDIA");
  CHECK(j.num_gpus == 8);
  CHECK(j.gpu_type == "v100");
  CHECK(j.state == JobState::Failed);
  CHECK(j.duration == doctest::Approx(10238.676));
  CHECK(j.command.rfind("mlperf benchmark=bert ", 0) == 0);
  // Nothing from a hand-written table of the benchmarks: only what the run states.
  for (const auto& job : t.jobs)
    for (const char* injected : {"model=", "dataset=", "task="}) CHECK(job.command.find(injected) == std::string::npos);
}

TEST_CASE("accelerators from MLPerf system names") {
  struct Case {
    const char* system;
    const char* kind;
    int count;
  };
  for (const Case& c : {Case{"dgxa100_n32_ngc20.06_pytorch", "a100", 256}, Case{"dgx2h_n4_ngc19.05_pytorch", "v100", 64},
                        Case{"dgx1_n130_ngc19.05_mxnet", "v100", 1040}, Case{"dgx2_ngc20.06_tensorflow", "v100", 16},
                        Case{"dgx1_ngc20.06_pytorch", "v100", 8}, Case{"tpu-v3-8192-JAX", "tpu-v3", 4096},
                        Case{"tpu-v3-32", "tpu-v3", 16}, Case{"gpu-v100-8-TF2.0", "v100", 8},
                        Case{"GN10X-8xV100", "v100", 8}, Case{"gx_V100x8_ngc20.06_pytorch", "v100", 8},
                        Case{"abci_2048xV100_mxnet", "v100", 2048}, Case{"v100-512", "v100", 512},
                        Case{"clx-8260l-2s-x32", "cpu", 0}, Case{"C4140", "", 0}, Case{"nf5488_pytorch", "", 0}}) {
    CAPTURE(c.system);
    Accelerators a = accelerators_from_system(c.system);
    CHECK(a.kind == c.kind);
    CHECK(a.count == c.count);
  }
}

TEST_CASE("MLLOG lines: JSON events with any prefix, the v0.6 form, quality of maskrcnn") {
  auto e = parse_mllog_line(
      "  0: :::MLLOG {\"namespace\": \"\", \"time_ms\": 1592976453800, \"key\": \"run_stop\", \"value\": null, "
      "\"metadata\": {\"status\": \"success\", \"epoch_num\": 3}}");
  REQUIRE(e);
  CHECK(e->key == "run_stop");
  CHECK(e->time_s == doctest::Approx(1592976453.8));
  CHECK(e->meta_string("status") == "success");
  CHECK(e->meta_number("epoch_num") == 3);
  auto old = parse_mllog_line(":::MLL 1558640803.690 eval_accuracy: {\"value\": 0.75, \"metadata\": {\"epoch_num\": 40}}");
  REQUIRE(old);
  CHECK(old->key == "eval_accuracy");
  CHECK(old->value.as_number() == 0.75);
  CHECK(old->meta_number("epoch_num") == 40);
  CHECK(!parse_mllog_line("plain text"));
  CHECK(!parse_mllog_line(":::MLLOG {not json"));
  CHECK(mllog_quality(Json::parse("{\"BBOX\": 0.378, \"SEGM\": 0.344}")) == 0.378);
  CHECK(std::isnan(mllog_quality(Json("x"))));
  REQUIRE(mlperf_benchmark("bert"));
  CHECK(mlperf_benchmark("bert")->target == 0.712);
  CHECK(!mlperf_benchmark("nosuch"));
}

TEST_CASE("shared: MLPerf runs.csv and the whole v0.7 logs") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  const std::filesystem::path root = data / "jobs/mlperf";
  TraceOptions o;
  o.path = (root / "runs.csv").string();
  auto t = read_trace(o);
  // 1,300 rows with a duration; 5 v0.6 Alibaba rows have no start time, 10 HugeCTR rows no epoch clock.
  CHECK(t.jobs.size() == 1285);
  CHECK(t.summary.skipped.at("no start time") == 5);
  CHECK(t.summary.skipped.at("start time not in epoch milliseconds") == 10);
  int v07 = 0, known_kind = 0;
  for (const auto& j : t.jobs) {
    v07 += j.id.rfind("v0.7/", 0) == 0;
    known_kind += !j.gpu_type.empty();
    // A system name that states a count agrees with the systems json behind the accelerators column.
    const std::string system = j.name.substr(0, j.name.find('/'));
    Accelerators a = accelerators_from_system(system);
    if (a.count > 0) CHECK_MESSAGE(a.count == j.num_gpus, system);
  }
  CHECK(v07 == 870);
  CHECK(known_kind > 1000);
  // One run's time is not a run time: Google's tpu-v3-8192-TF/ssd/result_0.txt opens with "Manually
  // chnaged run time to so this log will be dropped" and logs run_start at 1592800000000 ms, 15 h
  // before its init_stop, so runs.csv gives it 55,350 s where its four siblings took 28 s. It is the
  // only run beyond 100x its submission's median, and the one the MLPerf repro configs exclude
  // (trace.exclude_ids / schedmate.exclude_ids).
  std::map<std::string, std::vector<double>> by_name;
  for (const auto& j : t.jobs) by_name[j.user + "/" + j.name].push_back(j.duration);
  std::vector<std::string> far;
  for (const auto& j : t.jobs) {
    auto d = by_name.at(j.user + "/" + j.name);
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    if (j.duration > 100 * d[d.size() / 2]) far.push_back(j.id);
  }
  CHECK(far == std::vector<std::string>{"v0.7/Google/tpu-v3-8192-TF/ssd/0"});
  // Every whole log reads as one job whose duration matches its runs.csv row (1 ms rounding).
  std::map<std::string, double> row_duration;
  for (const auto& j : t.jobs) row_duration[j.id] = j.duration;
  // Five logs state no accelerator count in their system name or submission_platform (DellEMC
  // DSS8440 and C4140, Inspur NF5488 twice, SIAT's Ascend 910): bad rows, never 0-GPU jobs.
  int logs = 0, no_count = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root / "logs")) {
    if (!e.is_regular_file()) continue;
    TraceOptions lo;
    lo.path = e.path().string();
    lo.format = "mlperf_log";
    lo.lenient = true;
    auto lt = read_trace(lo);
    ++logs;
    no_count += static_cast<int>(lt.summary.bad_reasons.count(
        "submission_platform: cannot tell the accelerator count from the system name or submission_platform"));
    if (lt.jobs.empty()) continue;  // the HugeCTR log's clock, or no count
    auto it = row_duration.find(lt.jobs[0].id);
    REQUIRE_MESSAGE(it != row_duration.end(), lt.jobs[0].id);
    CHECK(lt.jobs[0].duration == doctest::Approx(it->second).epsilon(1e-5));
  }
  CHECK(logs == 31);
  CHECK(no_count == 5);
}
