// Filters, max_jobs, the streaming callback API and folder inputs.
#include <doctest/doctest.h>
#include <zlib.h>

#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/sched/workload/traces/fixture_path.hpp"

using namespace mlsys;
using namespace mlsys::workload;
using mlsys::workload::test::fixture;

namespace {
TraceOptions native_opts() {
  TraceOptions o;
  o.path = fixture("native.csv");
  return o;
}
std::vector<std::string> ids(const TraceLoad& t) {
  std::vector<std::string> out;
  for (const auto& j : t.jobs) out.push_back(j.id);
  return out;
}
}  // namespace

TEST_CASE("filters: time window, VC, state, GPU demand") {
  auto o = native_opts();
  o.start_s = 5;
  o.end_s = 30;
  CHECK(ids(read_trace(o)) == std::vector<std::string>{"n2", "n3"});
  o = native_opts();
  o.vcs = {"vc2"};
  CHECK(ids(read_trace(o)) == std::vector<std::string>{"n2", "n4"});
  o = native_opts();
  o.states = {"failed", "killed"};
  CHECK(ids(read_trace(o)) == std::vector<std::string>{"n2", "n3"});
  o = native_opts();
  o.min_gpus = 1;
  o.max_gpus = 1;
  auto t = read_trace(o);
  CHECK(ids(t) == std::vector<std::string>{"n1", "n3"});
  CHECK(t.summary.filtered_out == 2);
  CHECK(t.summary.rows_read == 4);
}

TEST_CASE("exclude_ids leaves out the named jobs, and an id that matches none stops the read") {
  auto o = native_opts();
  o.exclude_ids = {"n3", "n1"};
  auto t = read_trace(o);
  CHECK(ids(t) == std::vector<std::string>{"n2", "n4"});
  CHECK(t.summary.skipped.at("listed in trace.exclude_ids") == 2);
  CHECK(t.summary.filtered_out == 0);
  o.exclude_ids = {"n2", "n9"};
  CHECK_THROWS_AS(read_trace(o), ConfigError);
  // A read that stops early has not seen every job: no verdict on the ids it did not meet.
  o.max_jobs = 1;
  CHECK(ids(read_trace(o)) == std::vector<std::string>{"n1"});
}

TEST_CASE("max_jobs stops reading early") {
  auto o = native_opts();
  o.max_jobs = 2;
  auto t = read_trace(o);
  CHECK(ids(t) == std::vector<std::string>{"n1", "n2"});
  CHECK(t.summary.stopped_early);
  CHECK(t.summary.rows_read == 2);
}

TEST_CASE("streaming: the callback sees jobs one at a time and can stop a large file early") {
  // A 200k-row file; with a limit only the first rows are parsed, nothing is stored.
  mlsys::test::TempDir dir("stream");
  std::string path = (dir / "big.csv").string();
  std::vector<JobSpec> jobs(200000);
  for (size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = "j" + std::to_string(i);
    jobs[i].submit_time = static_cast<double>(i);
    jobs[i].duration = 10;
    jobs[i].num_gpus = 1 + static_cast<int>(i % 8);
  }
  write_native_csv(path, jobs);
  jobs.clear();
  TraceOptions o;
  o.path = path;
  int64_t seen = 0, gpus = 0;
  auto summary = stream_trace(o, [&](JobSpec&& j) {
    ++seen;
    gpus += j.num_gpus;
    return seen < 1000;  // the sink asks to stop
  });
  CHECK(seen == 1000);
  CHECK(summary.rows_read == 1000);
  CHECK(summary.stopped_early);
  // Whole file, constant memory in the sink.
  seen = 0;
  gpus = 0;
  summary = stream_trace(o, [&](JobSpec&& j) {
    ++seen;
    gpus += j.num_gpus;
    return true;
  });
  CHECK(seen == 200000);
  CHECK(gpus == 200000 / 8 * 36);
  CHECK(!summary.stopped_early);
}

TEST_CASE("a folder reads every recognised file of the chosen format, sorted by name") {
  TraceOptions o;
  o.path = fixture("");
  o.format = "tiresias";
  o.lenient = true;
  auto t = read_trace(o);
  CHECK(t.summary.files.size() == 2);  // tiresias_bad.csv, tiresias_jobs.csv
  CHECK(t.jobs.size() == 1 + 3);
  CHECK(t.summary.bad_rows == 2);
  o.format = "gavel";
  o.throughputs = fixture("throughputs.csv");
  t = read_trace(o);
  CHECK(t.summary.files.size() == 2);  // vcA.trace, vcBad.trace
  CHECK(t.jobs.size() == 6);
  o.path = fixture("missing_folder");
  CHECK_THROWS_AS(read_trace(o), MissingInput);  // a usage error: exit 2
}

TEST_CASE("field parsing helpers") {
  CHECK(parse_datetime("2017-10-01 00:00:00").value() == 1506816000);
  CHECK(parse_datetime("1970-01-02T00:00:01").value() == 86401);
  CHECK(parse_datetime("2020-02-30 00:00:00").has_value());  // calendar is not validated beyond ranges
  CHECK(!parse_datetime("2020-13-01 00:00:00"));
  CHECK(!parse_datetime("None"));
  CHECK(day_start(1506816000 + 3700) == 1506816000);
  CHECK(format_datetime(1506816000 + 3723) == "2017-10-01 01:02:03");
  CHECK(format_datetime(951782400) == "2000-02-29 00:00:00");  // leap day of a leap century
  for (int64_t t : {int64_t{0}, int64_t{1506816000} + 86400 * 61 - 1, int64_t{4102444800}})
    CHECK(parse_datetime(format_datetime(t)).value() == t);
  CHECK(parse_int("4.0").value() == 4);
  CHECK(!parse_int("4.5"));
  CHECK(!parse_double("1.5x"));
  CHECK(parse_double(" 2.5 ").value() == 2.5);
}

TEST_CASE("gzip-compressed traces read like plain ones") {
  mlsys::test::TempDir dir("gz");
  std::string plain = mlsys::test::read_text(fixture("native.csv"));
  auto gz = (dir / "native.csv.gz").string();
  gzFile f = gzopen(gz.c_str(), "wb");
  REQUIRE(f != nullptr);
  CHECK(gzwrite(f, plain.data(), static_cast<unsigned>(plain.size())) == static_cast<int>(plain.size()));
  gzclose(f);
  TraceOptions o;
  o.path = gz;
  auto t = read_trace(o);
  CHECK(t.summary.formats[0] == "native");
  CHECK(ids(t) == std::vector<std::string>{"n1", "n2", "n3", "n4"});
  CHECK(count_lines(gz) == 5);
}
