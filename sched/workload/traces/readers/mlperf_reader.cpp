// MLPerf Training runs as a job trace: the `runs.csv` table built from the results repositories
// (one row per result_<k>.txt; see ../shared/README.md):
//   round,org,system,benchmark,framework,accelerators,run_index,status,run_start_ms,run_stop_ms,
//   duration_s,log_path,status_raw,note
// A run is one job: id `<round>/<org>/<system>/<benchmark>/<run_index>`, user = the submitter (org),
// name `<system>/<benchmark>`, submit time = run_start (relative to trace.time_origin, else midnight
// UTC of the earliest run), duration = duration_s (MLPerf's time-to-train), GPUs = accelerators (the
// count a system name states when the column is empty; 0 = CPU system), gpu_type = the accelerator
// kind the system name states, state success/aborted/unknown -> completed/failed/unknown, and the
// run's facts as `key=value` words in the command (sched/workload/traces/mlperf.hpp).
// Rows without a duration, or without a start time in epoch milliseconds, are skipped and counted
// by reason: they cannot be placed in time.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/mlperf.hpp"

namespace mlsys::workload {
namespace {

class MlperfRunsReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    return starts_with(to_lower(first), "round,org,system,benchmark") ? 10 : 0;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, ',', true);
    const int round = rows.require("round"), org = rows.require("org"), system = rows.require("system"),
              bench = rows.require("benchmark"), framework = rows.require("framework"),
              accel = rows.require("accelerators"), index = rows.require("run_index"), status = rows.require("status"),
              start = rows.require("run_start_ms"), duration = rows.require("duration_s");
    // The table is not in time order; the time origin comes from the earliest run, so the runs are
    // held until the end (a results table has thousands of rows, not millions).
    std::vector<std::pair<JobSpec, double>> runs;  // job, start (s since 1970)
    double earliest = INFINITY;
    while (rows.next()) {
      RowParser p = rows.parser();
      if (!p.present(duration)) {
        ctx.skip_row("no duration (log not available or without run_stop)");
        continue;
      }
      if (!p.present(start)) {
        ctx.skip_row("no start time");
        continue;
      }
      MlperfRun r;
      r.round = std::string(trim(p.text(static_cast<size_t>(round))));
      r.org = std::string(trim(p.text(static_cast<size_t>(org))));
      r.system = std::string(trim(p.text(static_cast<size_t>(system))));
      r.benchmark = std::string(trim(p.text(static_cast<size_t>(bench))));
      r.framework = std::string(trim(p.text(static_cast<size_t>(framework))));
      const double start_ms = p.number(static_cast<size_t>(start), 0);
      JobSpec j;
      j.duration = p.seconds(static_cast<size_t>(duration));
      const int64_t run_index = p.integer(static_cast<size_t>(index), 0);
      const Accelerators named = accelerators_from_system(r.system);
      r.kind = named.kind;
      r.accelerators = named.count;
      if (p.present(accel)) {
        const int64_t n = p.integer(static_cast<size_t>(accel), 0);
        if (n > 1000000) p.fail(static_cast<size_t>(accel), "more than 1,000,000 accelerators");
        r.accelerators = static_cast<int>(n);
      } else if (!named.problem.empty()) {
        p.fail(static_cast<size_t>(system), named.problem);
      }
      if (!p.ok()) continue;
      if (r.system.empty() || r.benchmark.empty()) {
        p.fail(static_cast<size_t>(r.system.empty() ? system : bench), "empty");
        continue;
      }
      if (start_ms < kMinEpochMs) {
        ctx.skip_row("start time not in epoch milliseconds");
        continue;
      }
      const double start_s = start_ms / 1000.0;
      earliest = std::min(earliest, start_s);
      j.id = r.round + "/" + r.org + "/" + r.system + "/" + r.benchmark + "/" + std::to_string(run_index);
      j.user = r.org;
      j.name = mlperf_job_name(r);
      j.num_gpus = r.accelerators;
      j.gpu_type = r.kind;
      j.command = mlperf_command(r);
      const std::string st = to_lower(trim(p.text(static_cast<size_t>(status))));
      j.state = st == "success" ? JobState::Completed : st == "aborted" ? JobState::Failed : JobState::Unknown;
      runs.emplace_back(std::move(j), start_s);
    }
    if (runs.empty()) return;
    ctx.relative_time(static_cast<int64_t>(std::floor(earliest)));  // fixes the origin (unless trace.time_origin)
    for (auto& [j, start_s] : runs) {
      const double whole = std::floor(start_s);
      j.submit_time = ctx.relative_time(static_cast<int64_t>(whole)) + (start_s - whole);
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "mlperf", "MLPerf Training runs table (runs.csv: round,org,system,benchmark,...,duration_s); one job per run",
    [] { return std::make_unique<MlperfRunsReader>(); });

}  // namespace
}  // namespace mlsys::workload
