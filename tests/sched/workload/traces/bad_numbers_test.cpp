// Every sched reader against the shared table of bad numbers (tests/common/bad_numbers.hpp, issue
// #30 item 1): CSV traces, sacct, MLPerf runs, PAI 2020, Gavel, MLPerf system names, hints,
// SchedMate jobs JSONL (Philly's JSON holds no numeric fields: times are date strings, GPU counts
// the lengths of lists).
// Each must refuse the number with an error naming the field. Then one test per finding of the
// issue that these readers had (each failed at 5e70e60).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "core/util/error.hpp"
#include "sched/schedmate/jobs/job_source.hpp"
#include "sched/workload/hints.hpp"
#include "sched/workload/traces/mlperf.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/common/bad_numbers.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;
using mlsys::test::kBadNumbers;
using mlsys::test::TempDir;
using mlsys::test::thrown_message;
using mlsys::test::write_text;
namespace fs = std::filesystem;

namespace {

std::string trace_error(const fs::path& p) {
  TraceOptions o;
  o.path = p.string();
  return thrown_message<InputError>([&] { read_trace(o); });
}

TraceLoad load(const fs::path& p, bool lenient = false) {
  TraceOptions o;
  o.path = p.string();
  o.lenient = lenient;
  return read_trace(o);
}

// A result log in MLPerf's :::MLLOG form: platform, start and stop in epoch milliseconds.
std::string mllog(const std::string& platform, double start_ms, double stop_ms) {
  auto line = [](const std::string& key, double t, const std::string& value, const std::string& meta) {
    return "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": " + format_number(t) + ", \"key\": \"" + key +
           "\", \"value\": " + value + ", \"metadata\": {" + meta + "}}\n";
  };
  return line("submission_benchmark", start_ms, "\"bert\"", "") + line("submission_org", start_ms, "\"NVIDIA\"", "") +
         line("submission_platform", start_ms, "\"" + platform + "\"", "") + line("run_start", start_ms, "null", "") +
         line("run_stop", stop_ms, "null", "\"status\": \"success\"");
}

}  // namespace

TEST_CASE("bad numbers: every CSV trace reader, sacct and MLPerf runs refuse each, naming the field") {
  TempDir t("badnum");
  struct Field {
    const char* format;  // for the message only
    const char* text;    // header and one row, "{}" the bad number
    const char* field;   // what the error must name
    bool count;          // an integer count (else a time in seconds)
  };
  const std::string helios = "job_id,user,vc,jobname,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";
  const std::string sacct = "JobID|User|Partition|Submit|ElapsedRaw|State|AllocTRES\n";
  const std::string runs =
      "round,org,system,benchmark,framework,accelerators,run_index,status,run_start_ms,run_stop_ms,duration_s,log_path,status_raw,note\n";
  const Field fields[] = {
      {"native", "id,submit_time,duration,num_gpus\na,0,10,{}\n", "field 'num_gpus'", true},
      {"native", "id,submit_time,duration,num_gpus\na,0,{},1\n", "field 'duration'", false},
      {"native", "id,submit_time,duration,num_gpus\na,{},10,1\n", "field 'submit_time'", false},
      {"helios", "{}j1,uA,vcX,train-a,{},32,1,COMPLETED,2020-04-01 10:00:00,2020-04-01 10:00:05,2020-04-01 11:00:05,3600,5\n",
       "field 'gpu_num'", true},
      {"helios", "{}j1,uA,vcX,train-a,8,32,1,COMPLETED,2020-04-01 10:00:00,2020-04-01 10:00:05,2020-04-01 11:00:05,{},5\n",
       "field 'duration'", false},
      {"tiresias", "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n0,{},0,606,vgg19,164,30\n",
       "field 'num_gpu'", true},
      {"openb",
       "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
       "p,12000,16384,{},1000,,LS,Succeeded,0,1000,0\n",
       "field 'num_gpu'", true},
      {"slurm", "{}1|u|p|2024-03-01T08:00:00|7200|COMPLETED|cpu=8,gres/gpu={},node=1\n", "field 'GPU count'", true},
      {"slurm", "{}1|u|p|2024-03-01T08:00:00|{}|COMPLETED|cpu=8,gres/gpu=1,node=1\n", "field 'elapsedraw'", false},
      {"mlperf", "{}v0.7,NVIDIA,dgx1,bert,PyTorch,{},0,success,1592976259108,1592976453800,194.692,,,\n",
       "field 'accelerators'", true},
      {"mlperf", "{}v0.7,NVIDIA,dgx1,bert,PyTorch,8,0,success,1592976259108,1592976453800,{},,,\n", "field 'duration_s'",
       false},
  };
  for (const Field& f : fields)
    for (const auto& b : kBadNumbers) {
      const std::string format = f.format, field = f.field;
      CAPTURE(format);
      CAPTURE(field);
      CAPTURE(b.text);
      if (!(f.count ? b.refused_as_count : b.refused_as_duration)) continue;
      std::string text = f.text;
      if (format == "helios") text = mlsys::test::with_number(text, helios);
      if (format == "slurm") text = mlsys::test::with_number(text, sacct);
      if (format == "mlperf") text = mlsys::test::with_number(text, runs);
      write_text(t / "trace.csv", mlsys::test::with_number(text, b.text));
      const std::string e = trace_error(t / "trace.csv");
      CHECK_MESSAGE(e.find("trace.csv:") != std::string::npos, e);
      CHECK_MESSAGE(e.find(f.field) != std::string::npos, e);
    }
}

TEST_CASE("bad numbers: the PAI 2020, Gavel and Gavel-physical readers refuse each, naming the field") {
  // The readers the table above leaves out (their formats need a file name or a throughput table).
  TempDir t("badnum_pai_gavel");
  write_text(t / "throughputs.csv",
             "gpu_type,job_type,scale_factor,isolated_steps_per_sec\nv100,ResNet-18 (batch size 16),1,10\n");
  // PAI's job table is read with its task table (GPU demands) beside it: both valid, then the case's
  // file rewritten with the bad number.
  auto valid_pai = [&] {
    write_text(t / "pai_job_table.csv", "job1,inst1,userA,Terminated,1000,2000\n");
    write_text(t / "pai_task_table.csv", "job1,worker,2,Terminated,1010,1990,600,29.296875,100,V100\n");
  };
  struct Case {
    const char* format;
    const char* file;
    const char* text;   // "{}" the bad number
    const char* field;  // what the error must name
    char kind;          // 'c' a count, 'd' a time in seconds, 's' a step count (2^31 steps is a valid count)
  };
  const Case cases[] = {
      {"pai2020", "pai_task_table.csv", "job1,worker,{},Terminated,1010,1990,600,29.296875,100,V100\n", "inst_num", 'c'},
      {"pai2020", "pai_task_table.csv", "job1,worker,2,Terminated,1010,1990,600,29.296875,{},V100\n", "plan_gpu", 'd'},
      {"pai2020", "pai_job_table.csv", "job1,inst1,userA,Terminated,{},2000\n", "start_time", 'd'},
      {"pai2020", "pai_job_table.csv", "job1,inst1,userA,Terminated,1000,{}\n", "end_time", 'd'},
      {"gavel", "vc.trace", "ResNet-18 (batch size 16)\tpython3 main.py\t--num_steps\t1\t1005\t0.000000\t{}\n",
       "scale_factor", 'c'},
      {"gavel", "vc.trace", "ResNet-18 (batch size 16)\tpython3 main.py\t--num_steps\t1\t{}\t0.000000\t1\n",
       "total_steps", 's'},
      {"gavel", "vc.trace", "ResNet-18 (batch size 16)\tpython3 main.py\t--num_steps\t1\t1005\t{}\t1\n",
       "arrival_time_s", 'd'},
      {"gavel_physical", "physical.trace",
       "ResNet-18 (batch size 16)\tpython3 main.py\tcifar10\t--num_steps\t1\t{}\t1\t1\t-1.000000\t0\n", "total_steps", 's'},
      {"gavel_physical", "physical.trace",
       "ResNet-18 (batch size 16)\tpython3 main.py\tcifar10\t--num_steps\t1\t200\t{}\t1\t-1.000000\t0\n", "scale_factor", 'c'},
      {"gavel_physical", "physical.trace",
       "ResNet-18 (batch size 16)\tpython3 main.py\tcifar10\t--num_steps\t1\t200\t1\t1\t-1.000000\t{}\n", "arrival_time_s",
       'd'},
  };
  for (const Case& c : cases)
    for (const auto& b : kBadNumbers) {
      const std::string format = c.format, field = c.field;
      CAPTURE(format);
      CAPTURE(field);
      CAPTURE(b.text);
      const bool refused = c.kind == 'c'   ? b.refused_as_count
                           : c.kind == 'd' ? b.refused_as_duration
                                           : b.refused_as_count && b.text != "2147483648";
      if (!refused) continue;
      const bool pai = format == "pai2020";
      if (pai) valid_pai();
      write_text(t / c.file, mlsys::test::with_number(c.text, b.text));
      TraceOptions o;
      o.path = (t / (pai ? "pai_job_table.csv" : c.file)).string();
      o.format = c.format;
      o.throughputs = (t / "throughputs.csv").string();
      const std::string e = thrown_message<InputError>([&] { read_trace(o); });
      CHECK_MESSAGE(e.find(c.file) != std::string::npos, e);
      CHECK_MESSAGE(e.find(c.field) != std::string::npos, e);
    }
}

TEST_CASE("bad numbers: MLPerf system names refuse counts past 2^20, never wrapping them") {
  for (const auto& b : kBadNumbers) {
    CAPTURE(b.text);
    const std::string digits(b.text);
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;  // a name holds only digit runs
    const Accelerators a = accelerators_from_system("dgx1_n" + digits + "_pytorch");
    CHECK(a.count == 0);
    CHECK_MESSAGE(a.problem.find("count") != std::string::npos, a.problem);
    const Accelerators x = accelerators_from_system(digits + "xV100");
    CHECK(x.count == 0);
    CHECK(!x.problem.empty());
  }
}

TEST_CASE("bad numbers: hints and SchedMate jobs JSONL refuse each, naming file, line and field") {
  TempDir t("badnumjobs");
  for (const auto& b : kBadNumbers) {
    CAPTURE(b.text);
    if (b.refused_as_duration) {
      write_text(t / "hints.csv", "job_id,predicted_duration_s\na," + std::string(b.text) + "\n");
      const std::string e = thrown_message<InputError>([&] { read_hints((t / "hints.csv").string()); });
      CHECK_MESSAGE(e.find("hints.csv:2:2: field 'predicted_duration_s'") != std::string::npos, e);
    }
    if (b.text == "nan") continue;  // not JSON: the line is refused as such (below)
    if (b.refused_as_count) {
      const std::string line = "{\"id\": \"a\", \"command\": \"python train.py\", \"num_gpus\": " + std::string(b.text) + "}\n";
      const std::string e = thrown_message<InputError>([&] { schedmate::parse_jobs_jsonl(line, "jobs.jsonl", {}, ""); });
      CHECK_MESSAGE(e.find("jobs.jsonl:1: field 'num_gpus'") == 0, e);
    }
    if (b.refused_as_duration) {
      const std::string line = "{\"id\": \"a\", \"duration\": " + std::string(b.text) + "}\n";
      const std::string e = thrown_message<InputError>([&] { schedmate::parse_jobs_jsonl(line, "jobs.jsonl", {}, ""); });
      CHECK_MESSAGE(e.find("jobs.jsonl:1: field 'duration'") == 0, e);
    }
  }
  CHECK(!thrown_message<InputError>([&] { schedmate::parse_jobs_jsonl("{\"num_gpus\": nan}\n", "jobs.jsonl", {}, ""); }).empty());
}

TEST_CASE("finding: sacct gres/gpu=-4 and typed GPU counts summing past 2^63 are refused, not 0-GPU jobs") {
  TempDir t("sacctgpus");
  const std::string head = "JobID|User|Partition|Submit|ElapsedRaw|State|AllocTRES\n";
  write_text(t / "neg.txt", head + "1|u|p|2024-03-01T08:00:00|7200|COMPLETED|cpu=8,gres/gpu=-4,node=1\n");
  std::string e = trace_error(t / "neg.txt");
  CHECK_MESSAGE(e.find("neg.txt:2:7: field 'alloctres'") != std::string::npos, e);
  CHECK_MESSAGE(e.find("field 'GPU count' = '-4': too small") != std::string::npos, e);
  write_text(t / "sum.txt", head + "1|u|p|2024-03-01T08:00:00|7200|COMPLETED|gres/gpu:a100=9223372036854775807,"
                                   "gres/gpu:v100=9223372036854775807\n");
  e = trace_error(t / "sum.txt");
  CHECK_MESSAGE(e.find("field 'GPU count' = '9223372036854775807': too large") != std::string::npos, e);
  write_text(t / "big.txt", head + "1|u|p|2024-03-01T08:00:00|7200|COMPLETED|gres/gpu:a100=1000000,gres/gpu:v100=1000000\n");
  e = trace_error(t / "big.txt");  // each in range, the sum not
  CHECK_MESSAGE(e.find("field 'GPU count' = '1000000': too large") != std::string::npos, e);
  CHECK(load(t / "big.txt", true).jobs.empty());
}

TEST_CASE("finding: a sacct row submitted before the first row's day names trace.time_origin") {
  TempDir t("sacctorigin");
  write_text(t / "s.txt", "JobID|User|Partition|Submit|ElapsedRaw|State|AllocTRES\n"
                          "1|u|p|2024-03-02T08:00:00|7200|COMPLETED|gres/gpu=1\n"
                          "2|u|p|2024-03-01T23:00:00|7200|COMPLETED|gres/gpu=1\n");
  const std::string e = trace_error(t / "s.txt");
  CHECK_MESSAGE(e.find("s.txt:3: field 'submit_time' = '-3600': submitted before the trace's time 0, 2024-03-02 00:00:00 UTC") != std::string::npos, e);
  CHECK_MESSAGE(e.find("set trace.time_origin to an earlier") != std::string::npos, e);
  TraceOptions o;
  o.path = (t / "s.txt").string();
  o.time_origin = "2024-03-01 00:00:00";
  const auto ok = read_trace(o);
  REQUIRE(ok.jobs.size() == 2);
  CHECK(ok.jobs[0].submit_time == 23 * 3600);
}

TEST_CASE("finding: MLPerf system dgx1_n536870913 is refused, not 8 GPUs") {
  const Accelerators a = accelerators_from_system("dgx1_n536870913_ngc20.06_pytorch");
  CHECK(a.count == 0);
  CHECK(!a.problem.empty());
  CHECK(accelerators_from_system("dgx1_n130_ngc19.05_mxnet").count == 1040);  // in range: unchanged
  TempDir t("mlperfsys");
  write_text(t / "runs.csv",
             "round,org,system,benchmark,framework,accelerators,run_index,status,run_start_ms,run_stop_ms,duration_s,"
             "log_path,status_raw,note\n"
             "v0.7,NVIDIA,dgx1_n536870913_ngc20.06_pytorch,bert,PyTorch,,0,success,1592976259108,1592976453800,194.692,,,\n");
  const std::string e = trace_error(t / "runs.csv");
  CHECK_MESSAGE(e.find("runs.csv:2:3: field 'system'") != std::string::npos, e);
}

TEST_CASE("finding: an MLPerf log outside <org>/results/<system>/ takes its GPUs from submission_platform") {
  TempDir t("mlperflog");
  write_text(t / "result_1.txt", mllog("32xNVIDIA DGX A100", 1593152786311, 1593153786311));
  const auto r = load(t / "result_1.txt");
  REQUIRE(r.jobs.size() == 1);
  CHECK(r.jobs[0].num_gpus == 256);
  CHECK(r.jobs[0].gpu_type == "a100");
  // A platform that states no count is refused, never a 0-GPU job.
  write_text(t / "result_2.txt", mllog("NVIDIA A100 cluster", 1593152786311, 1593153786311));
  const std::string e = trace_error(t / "result_2.txt");
  CHECK_MESSAGE(e.find("field 'submission_platform' = 'NVIDIA A100 cluster': cannot tell the accelerator count") != std::string::npos, e);
}

TEST_CASE("finding: an MLLOG with run_stop before run_start is a bad row, not a 0 s completed run") {
  TempDir t("mlperfstop");
  write_text(t / "result_1.txt", mllog("1xNVIDIA DGX A100", 1593152786311, 1593152786000));
  const std::string e = trace_error(t / "result_1.txt");
  CHECK_MESSAGE(e.find("result_1.txt:5: field 'run_stop' = '1593152786': before run_start") != std::string::npos, e);
  CHECK(load(t / "result_1.txt", true).summary.bad_rows == 1);
}

TEST_CASE("finding: SchedMate JSONL num_gpus 99999999999, -3 and 2.7 are refused, not -2147483648, -3 and 2") {
  for (const char* v : {"99999999999", "-3", "2.7"}) {
    CAPTURE(v);
    const std::string line = std::string("{\"id\": \"a\", \"num_gpus\": ") + v + "}\n";
    const std::string e = thrown_message<InputError>([&] { schedmate::parse_jobs_jsonl(line, "jobs.jsonl", {}, ""); });
    CHECK_MESSAGE(e.find(std::string("jobs.jsonl:1: field 'num_gpus' = '") + v + "'") == 0, e);
  }
  const auto ok = schedmate::parse_jobs_jsonl("{\"id\": \"a\", \"num_gpus\": 4}\n{\"id\": \"b\", \"num_gpus\": 2.0}\n",
                                              "jobs.jsonl", {}, "");
  REQUIRE(ok.size() == 2);
  CHECK(ok[0].text.num_gpus == 4);
  CHECK(ok[1].text.num_gpus == 2);
}
