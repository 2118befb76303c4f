// Trace reading and generation throughput (rows/s), each against a raw line-count pass over the
// same file in the same run (the I/O floor), plus memory per kept job.
//   bench_sim_trace_read [jobs=1000000] [folder for the temporary trace=/tmp]
// With MLSYS_DATA_DIR set, also reads the shared openb, Philly/Gavel and Helios reference traces.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/process/system.hpp"
#include "core/util/fs.hpp"
#include "core/io/line_reader.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/read_trace.hpp"

using namespace mlsys;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
template <class Fn>
double best_of(int reps, Fn&& fn) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = now();
    fn();
    best = std::min(best, now() - t0);
  }
  return best;
}

void compare(const char* label, const workload::TraceOptions& o, int reps) {
  auto files = workload::trace_files(o);
  int64_t lines = 0, rows = 0;
  double raw = best_of(reps, [&] {
    lines = 0;
    for (const auto& f : files) lines += count_lines(f);
  });
  double parsed = best_of(reps, [&] {
    rows = workload::stream_trace(o, [](workload::JobSpec&&) { return true; }).rows_read;
  });
  std::printf("%-34s rows %9lld  raw line count %8.1f Mrows/s  stream_trace %7.2f Mrows/s  (%.1fx raw time)\n", label,
              static_cast<long long>(rows), static_cast<double>(lines) / raw / 1e6,
              static_cast<double>(rows) / parsed / 1e6, parsed / raw);
}
}  // namespace

int main(int argc, char** argv) {
  const int64_t jobs = argc > 1 ? std::atoll(argv[1]) : 1000000;
  const std::filesystem::path dir = argc > 2 ? argv[2] : "/tmp";
  const std::string path = (dir / "bench_sim_trace_read.csv").string();
  std::printf("bench_sim_trace_read: %lld generated jobs, 1 thread\n", static_cast<long long>(jobs));

  workload::TracegenOptions g;
  g.jobs = jobs;
  g.rate_per_hour = 3600;
  g.runtimes_file = "builtin";
  double gen_mem = best_of(3, [&] {
    workload::TraceGenerator gen(g, 1);
    workload::JobSpec j;
    while (gen.next(j)) {
    }
  });
  double gen_file = best_of(1, [&] { workload::generate_trace_file(g, 1, path); });
  std::printf("%-34s %7.2f Mjobs/s in memory, %7.2f Mjobs/s to native CSV (%.1f MB)\n", "tracegen", jobs / gen_mem / 1e6,
              jobs / gen_file / 1e6, static_cast<double>(std::filesystem::file_size(path)) / 1e6);

  workload::TraceOptions o;
  o.path = path;
  compare("native CSV (generated)", o, 3);

  // Memory per kept job: RSS growth while read_trace holds every job.
  uint64_t before = current_rss_bytes();
  double t0 = now();
  auto t = workload::read_trace(o);
  double load = now() - t0;
  uint64_t after = current_rss_bytes();
  std::printf("%-34s %7.2f Mjobs/s, %.0f bytes per kept job (RSS growth; sizeof(JobSpec) = %zu)\n",
              "read_trace (kept in memory)", static_cast<double>(t.jobs.size()) / load / 1e6,
              static_cast<double>(after - before) / static_cast<double>(t.jobs.size()), sizeof(workload::JobSpec));
  t.jobs.clear();
  t.jobs.shrink_to_fit();
  // Streaming with a limit touches only the first rows.
  o.max_jobs = 1000;
  double limited = best_of(3, [&] { workload::stream_trace(o, [](workload::JobSpec&&) { return true; }); });
  std::printf("%-34s %.3f ms for the first 1000 of %lld rows\n", "stream_trace with max_jobs", limited * 1e3,
              static_cast<long long>(jobs));
  std::filesystem::remove(path);

  auto data = data_dir();
  if (data.empty()) {
    std::printf("(set MLSYS_DATA_DIR for the shared traces)\n");
    return 0;
  }
  workload::TraceOptions s;
  s.path = (data / "traces/alibaba_openb_v2023/openb_pod_list_default.csv").string();
  compare("openb pod list (8,152 pods)", s, 20);
  s.path = (data / "traces/philly_gavel").string();
  compare("philly_gavel/ (10 VC traces)", s, 20);
  s.path = (data / "../reference/helios_gavel/cluster_log.csv").string();
  compare("Helios reference cluster_log.csv", s, 20);
  return 0;
}
