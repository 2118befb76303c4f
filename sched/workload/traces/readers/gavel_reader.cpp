// Gavel's Philly-derived per-VC traces (stanford-futuredata/gavel scheduler/traces/msr), one VC per
// file, tab-separated 7 fields:
//   job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time_s, scale_factor
// Duration follows the Helios reference inputs exactly (docs/traces.md): round half up of
// total_steps / isolated steps-per-second of (trace.gpu_type, job_type, scale_factor), at least 1 s;
// a missing pair uses the scale-1 throughput x scale_factor. VC = file stem, user = VC,
// id = "<vc>-<5-digit job index in the file>" (the Helios jobname).
#include <cstdio>
#include <filesystem>

#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"
#include "sched/workload/traces/gavel_throughputs.hpp"

namespace mlsys::workload {
namespace {

class GavelReader final : public TraceReader {
 public:
  int detect(std::string_view name, std::string_view first) const override {
    size_t tabs = 0;
    for (char c : first) tabs += c == '\t';
    return tabs == 6 ? (name.size() > 6 && name.substr(name.size() - 6) == ".trace" ? 10 : 5) : 0;
  }

  void read(ReadContext& ctx) override {
    ctx.throughputs();  // load (or fail) before the first row
    const std::string vc = std::filesystem::path(ctx.file()).stem().string();
    CsvRows rows(ctx, '\t', false);
    rows.set_names({"job_type", "command", "num_steps_arg", "needs_data_dir", "total_steps", "arrival_time_s",
                    "scale_factor"});
    int64_t index = 0;
    char id[32];
    while (rows.next()) {
      RowParser p = rows.parser();
      if (!p.need(7)) continue;
      JobSpec j;
      j.name = std::string(p.text(0));
      j.total_steps = static_cast<double>(p.integer(4, 1, kMaxTraceSteps));  // whole steps (2.7, -1 refused)
      j.submit_time = p.seconds(5);
      j.num_gpus = p.gpu_count(6, 1);
      if (!p.ok()) continue;
      if (!set_gavel_duration(ctx, p, j)) continue;
      std::snprintf(id, sizeof id, "-%05lld", static_cast<long long>(index++));
      j.id = vc + id;
      j.vc = vc;
      j.user = vc;
      j.command = std::string(p.text(1));
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "gavel", "Gavel/Philly per-VC trace (*.trace, 7 tab-separated fields); durations from Gavel throughputs",
    [] { return std::make_unique<GavelReader>(); });

}  // namespace
}  // namespace mlsys::workload
