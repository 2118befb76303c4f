// Bad trace input fails loudly (#16): truncated or corrupt gzip, rows cut short, values out of
// range, and an interrupted trace generation. Every fixture is written here, at test time.
#include <doctest/doctest.h>
#include <zlib.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;
using mlsys::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

// A native trace of n generated jobs, as text.
std::string native_trace(int64_t n) {
  TracegenOptions g;
  g.jobs = n;
  g.runtimes_file = "builtin";
  std::string text;
  append_native_header(text);
  for (const auto& j : generate_trace(g, 7)) append_native_row(text, j);
  return text;
}

std::string gzip(const std::string& text) {
  uLongf cap = compressBound(static_cast<uLong>(text.size())) + 64;
  std::string out(cap, '\0');
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);  // gzip wrapper
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(cap);
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string error_of(const TraceOptions& o) {
  try {
    read_trace(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TraceOptions options(const fs::path& p, bool lenient = false) {
  TraceOptions o;
  o.path = p.string();
  o.lenient = lenient;
  return o;
}

}  // namespace

TEST_CASE("reliability: a truncated gzip trace is an error naming the file and what was read") {
  TempDir t("trunc");
  const std::string gz = gzip(native_trace(1000));
  spit(t / "trace.csv.gz", gz);
  REQUIRE(read_trace(options(t / "trace.csv.gz")).jobs.size() == 1000);  // intact: every row
  spit(t / "cut.csv.gz", gz.substr(0, gz.size() / 2));
  for (bool lenient : {false, true}) {
    std::string err = error_of(options(t / "cut.csv.gz", lenient));
    CHECK_MESSAGE(err.find("cut.csv.gz") != std::string::npos, err);
    CHECK_MESSAGE(err.find("truncated gzip") != std::string::npos, err);
    CHECK_MESSAGE(err.find("after ") != std::string::npos, err);
    CHECK_MESSAGE(err.find(" complete lines") != std::string::npos, err);
  }
  // Only the 8-byte trailer missing: all rows decompress, but the file is still incomplete.
  spit(t / "notrailer.csv.gz", gz.substr(0, gz.size() - 8));
  CHECK(error_of(options(t / "notrailer.csv.gz")).find("truncated gzip") != std::string::npos);
}

TEST_CASE("reliability: a corrupt gzip trace is reported as corrupt, not as an unknown format") {
  TempDir t("corrupt");
  std::string gz = gzip(native_trace(1000));
  for (size_t i = gz.size() / 3; i < gz.size() / 3 + 64; ++i) gz[i] = static_cast<char>(gz[i] ^ 0x5A);
  spit(t / "bad.csv.gz", gz);
  for (std::string format : {"auto", "native"}) {
    TraceOptions o = options(t / "bad.csv.gz");
    o.format = format;
    std::string err = error_of(o);
    CHECK_MESSAGE(err.find("bad.csv.gz") != std::string::npos, err);
    CHECK_MESSAGE(err.find("corrupt gzip") != std::string::npos, err);
    CHECK_MESSAGE(err.find("cannot tell the trace format") == std::string::npos, err);
  }
  // A gzip header with nothing valid after it fails the same way at detection.
  spit(t / "head.csv.gz", gz.substr(0, 10) + std::string(100, '\x7f'));
  CHECK(error_of(options(t / "head.csv.gz")).find("head.csv.gz") != std::string::npos);
}

TEST_CASE("reliability: a row cut inside a column is a bad row, not a wrong value") {
  TempDir t("cutrow");
  const std::string full = "id,submit_time,duration,num_gpus,user\nj0,0,2183,1,alice\nj1,5,2183,2,bob\n";
  // The file ends inside j1's duration ("21" of "2183"), as a cut copy leaves it.
  spit(t / "cut.csv", full.substr(0, full.rfind("2183") + 2));
  std::string err = error_of(options(t / "cut.csv"));
  CHECK_MESSAGE(err.find("cut.csv:3") != std::string::npos, err);
  CHECK_MESSAGE(err.find("row cut short") != std::string::npos, err);
  auto lenient = read_trace(options(t / "cut.csv", true));
  REQUIRE(lenient.jobs.size() == 1);
  CHECK(lenient.jobs[0].duration == 2183);
  CHECK(lenient.summary.bad_rows == 1);
}

TEST_CASE("reliability: out-of-range integers and times are bad rows naming the field") {
  TempDir t("range");
  struct Case {
    const char* row;
    const char* field;
  };
  const Case cases[] = {
      {"a,0,10,99999999999", "num_gpus"},  // overflowed int to 1,215,752,191
      {"b,0,10,2147483648", "num_gpus"},   // 2^31: became negative and was silently filtered out
      {"c,0,1e12,1", "duration"},          // grew memory without bound (hourly samples)
      {"d,0,1e300,1", "duration"},         // blamed the placer
      {"e,1e300,10,1", "submit_time"},
      {"f,0,10,-3", "num_gpus"},
  };
  std::string all = "id,submit_time,duration,num_gpus\n";
  for (const auto& c : cases) {
    spit(t / "one.csv", std::string("id,submit_time,duration,num_gpus\n") + c.row + "\n");
    std::string err = error_of(options(t / "one.csv"));
    CHECK_MESSAGE(err.find(std::string("field '") + c.field + "'") != std::string::npos, c.row << ": " << err);
    CHECK_MESSAGE(err.find("one.csv:2") != std::string::npos, err);
    all += std::string(c.row) + "\n";
  }
  all += "ok,0,10,1\n";
  spit(t / "all.csv", all);
  auto r = read_trace(options(t / "all.csv", true));
  CHECK(r.jobs.size() == 1);
  CHECK(r.summary.bad_rows == 6);
  auto json = r.summary.to_json().dump();  // what summary.json's "trace" object holds
  CHECK_MESSAGE(json.find("\"bad_rows\":6") != std::string::npos, json);
  CHECK(r.summary.bad_reasons.count("num_gpus: must be <= 1048576") == 1);
  // The horizon is configurable: a trace that really spans 40 years reads with a larger one.
  spit(t / "long.csv", "id,submit_time,duration,num_gpus\nx,0,1.3e9,1\n");
  TraceOptions o = options(t / "long.csv");
  CHECK(error_of(o).find("trace.horizon_s") != std::string::npos);
  o.horizon_s = 2e9;
  CHECK(read_trace(o).jobs.at(0).duration == 1.3e9);
}

TEST_CASE("reliability: other formats bound their counts too") {
  TempDir t("formats");
  spit(t / "cluster_log.csv",
       "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration\n"
       "1,u,vc1,2147483648,1,1,COMPLETED,2020-04-01 00:00:00,,,10\n");
  CHECK(error_of(options(t / "cluster_log.csv")).find("field 'gpu_num'") != std::string::npos);
  spit(t / "60_job.csv", "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n1,4,0,10,vgg,1e12,0\n");
  CHECK(error_of(options(t / "60_job.csv")).find("field 'duration'") != std::string::npos);
}

TEST_CASE("reliability: simulate generate stops on the first interrupt and leaves no temporary file") {
  TempDir t("genstop");
  TracegenOptions g;
  g.jobs = 5'000'000;
  g.runtimes_file = "builtin";
  install_interrupt_handler();
  std::raise(SIGINT);  // as if Ctrl-C (or SIGTERM) arrived while generating
  std::string err;
  try {
    generate_trace_file(g, 1, (t / "trace.csv").string());
  } catch (const Error& e) {
    err = e.what();
  }
  clear_interrupt();
  // Stopped at the first beat, named by its signal (a stop every 65,536 jobs came too late on a slow machine).
  CHECK_MESSAGE(err.find("stopped by SIGINT after ") != std::string::npos, err);
  CHECK_MESSAGE(err.find(" of 5000000 jobs") != std::string::npos, err);
  CHECK(fs::is_empty(t.path()));  // neither trace.csv nor a .tmp file
  // Without the interrupt the same call writes the file (and only it).
  g.jobs = 70'000;
  CHECK(generate_trace_file(g, 1, (t / "trace.csv").string()) == 70'000);
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(t.path())) ++files;
  CHECK(files == 1);
  CHECK(slurp(t / "trace.csv").rfind("g69999,", std::string::npos) != std::string::npos);
}
