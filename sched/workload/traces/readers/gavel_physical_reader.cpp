// Gavel's 10-field job trace (e.g. gavel_physical_artifact_evaluation.trace), tab-separated:
//   job_type, command, working_directory, num_steps_arg, needs_data_dir, total_steps, scale_factor,
//   priority_weight, SLO, arrival_time_s
// Durations as for the 7-field traces (trace.gpu_type throughputs); id = line index.
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"
#include "sched/workload/traces/gavel_throughputs.hpp"

namespace mlsys::workload {
namespace {

class GavelPhysicalReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    size_t tabs = 0;
    for (char c : first) tabs += c == '\t';
    return tabs == 9 ? 10 : 0;
  }

  void read(ReadContext& ctx) override {
    ctx.throughputs();  // load (or fail) before the first row
    CsvRows rows(ctx, '\t', false);
    rows.set_names({"job_type", "command", "working_directory", "num_steps_arg", "needs_data_dir", "total_steps",
                    "scale_factor", "priority_weight", "slo", "arrival_time_s"});
    int64_t index = 0;
    while (rows.next()) {
      RowParser p = rows.parser();
      if (!p.need(10)) continue;
      JobSpec j;
      j.name = std::string(p.text(0));
      j.total_steps = static_cast<double>(p.integer(5, 1, kMaxTraceSteps));  // whole steps (2.7, -1 refused)
      j.num_gpus = p.gpu_count(6, 1);
      p.number(7);  // priority weight and SLO are validated but JobSpec has no place for them
      p.number(8);
      j.submit_time = p.seconds(9);
      if (!p.ok()) continue;
      if (!set_gavel_duration(ctx, p, j)) continue;
      j.id = std::to_string(index++);
      j.command = std::string(p.text(1));
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "gavel_physical",
    "Gavel 10-field job trace (job_type, command, working_directory, ..., priority_weight, SLO, arrival_time)",
    [] { return std::make_unique<GavelPhysicalReader>(); });

}  // namespace
}  // namespace mlsys::workload
