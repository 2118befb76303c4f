// Loader checks on the real traces in ../shared/data (skipped when MLSYS_DATA_DIR is unset).
// Expected counts and sums were taken with awk on the raw files, independently of these readers.
#include <doctest/doctest.h>

#include <map>
#include <tuple>

#include "sched/workload/traces/openb_nodes.hpp"
#include "sched/workload/traces/read_trace.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;

namespace {
TraceOptions at(const std::filesystem::path& p) {
  TraceOptions o;
  o.path = p.string();
  return o;
}
int64_t gpu_sum(const std::vector<JobSpec>& jobs) {
  int64_t s = 0;
  for (const auto& j : jobs) s += j.num_gpus;
  return s;
}
}  // namespace

TEST_CASE("shared: openb pod lists and node list") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  auto dir = data / "traces/alibaba_openb_v2023";
  auto t = read_trace(at(dir / "openb_pod_list_default.csv"));
  CHECK(t.summary.formats[0] == "openb");
  CHECK(t.jobs.size() == 8152);
  CHECK(gpu_sum(t.jobs) == 7433);
  int64_t milli = 0, cpu_only = 0, fractional = 0;
  for (const auto& j : t.jobs) {
    milli += static_cast<int64_t>(j.num_gpus) * j.gpu_milli;
    cpu_only += j.num_gpus == 0;
    fractional += j.gpu_milli < 1000;
  }
  CHECK(milli == 6086800);
  CHECK(cpu_only == 1088);
  CHECK(fractional == 8152 - 1088 - (3911 + 44 + 16 + 15));  // CPU-only and whole-GPU pods excluded
  CHECK(read_trace(at(dir / "openb_pod_list_gpushare100.csv")).jobs.size() == 8152);
  CHECK(read_trace(at(dir / "openb_pod_list_multigpu50.csv")).jobs.size() == 9061);

  auto nodes = read_openb_nodes((dir / "openb_node_list_gpu_node.csv").string());
  CHECK(nodes.size() == 1213);
  int64_t gpus = 0;
  for (const auto& n : nodes) gpus += n.gpus;
  CHECK(gpus == 6212);
  CHECK(read_openb_nodes((dir / "openb_node_list_all_node.csv").string()).size() == 1523);
}

TEST_CASE("shared: every Philly/Gavel VC trace (job count, GPU sum, step sum)") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  struct Expect {
    const char* file;
    size_t jobs;
    int64_t gpus;
    double steps;
  };
  const Expect expect[] = {
      {"0e4a51.trace", 1181, 3236, 6815877024}, {"103959.trace", 986, 2364, 1916994894},
      {"11cb48.trace", 2000, 4405, 2876472301}, {"23dbec.trace", 9, 58, 4632861},
      {"2869ce.trace", 533, 5425, 1339392653},  {"51b7ef.trace", 18, 115, 13170120},
      {"6c71a0.trace", 2000, 3270, 7838777082}, {"7f04ca.trace", 972, 4430, 13913721875},
      {"925e2b.trace", 4, 25, 1432336},         {"ed69ec.trace", 951, 951, 3232740580}};
  size_t total = 0;
  for (const auto& e : expect) {
    CAPTURE(e.file);
    auto t = read_trace(at(data / "traces/philly_gavel" / e.file));
    CHECK(t.summary.formats[0] == "gavel");
    CHECK(t.jobs.size() == e.jobs);
    CHECK(gpu_sum(t.jobs) == e.gpus);
    double steps = 0;
    for (const auto& j : t.jobs) {
      steps += j.total_steps;
      CHECK(j.duration >= 1);
    }
    CHECK(steps == e.steps);
    total += e.jobs;
  }
  // The folder reads all ten (LICENSE and cluster_specs.json are not traces).
  auto all = read_trace(at(data / "traces/philly_gavel"));
  CHECK(all.summary.files.size() == 10);
  CHECK(all.jobs.size() == total);
}

TEST_CASE("shared: Gavel durations match the Helios reference inputs exactly") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  auto ref_path = data / "../reference/helios_gavel/cluster_log.csv";
  auto ref = read_trace(at(ref_path));
  CHECK(ref.summary.formats[0] == "helios");
  REQUIRE(ref.jobs.size() == 3741);
  double dsum = 0;
  std::map<std::string, const JobSpec*> by_name;
  for (const auto& j : ref.jobs) {
    dsum += j.duration;
    by_name[j.name] = &j;
  }
  CHECK(dsum == 270685539);
  TraceOptions o;
  for (const char* vc : {"0e4a51", "11cb48", "23dbec", "2869ce", "51b7ef"})
    o.paths.push_back((data / "traces/philly_gavel" / (std::string(vc) + ".trace")).string());
  auto ours = read_trace(o);
  REQUIRE(ours.jobs.size() == ref.jobs.size());
  int mismatches = 0;
  for (const auto& j : ours.jobs) {
    auto it = by_name.find(j.id);
    REQUIRE(it != by_name.end());
    const JobSpec& r = *it->second;
    if (j.duration != r.duration || j.submit_time != r.submit_time || j.num_gpus != r.num_gpus || j.vc != r.vc ||
        j.user != r.user) {
      if (++mismatches < 5) MESSAGE(j.id << ": ours " << j.duration << " ref " << r.duration);
    }
  }
  CHECK(mismatches == 0);
  // The merged order (submit time, then file order) matches the reference's job_id order.
  for (size_t i = 1; i < ours.jobs.size(); ++i) {
    const auto* a = by_name[ours.jobs[i - 1].id];
    const auto* b = by_name[ours.jobs[i].id];
    if (std::stoll(a->id) >= std::stoll(b->id)) {
      FAIL_CHECK("order differs at " << ours.jobs[i].id);
      break;
    }
  }
}

TEST_CASE("shared: Tiresias and the 10-field Gavel trace") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  auto t = read_trace(at(data / "traces/tiresias/60_job.csv"));
  CHECK(t.summary.formats[0] == "tiresias");
  CHECK(t.jobs.size() == 60);
  CHECK(gpu_sum(t.jobs) == 170);
  double d = 0;
  for (const auto& j : t.jobs) d += j.duration;
  CHECK(d == 10705);
  auto g = read_trace(at(data / "jobs/gavel_physical_artifact_evaluation.trace"));
  CHECK(g.summary.formats[0] == "gavel_physical");
  CHECK(g.jobs.size() == 15);
  CHECK(gpu_sum(g.jobs) == 18);
}
