// Tiresias simulator job CSV (SymbioticLab/Tiresias, e.g. 60_job.csv):
//   job_id,num_gpu,submit_time,iterations,model_name,duration,interval
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {
namespace {

class TiresiasReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    std::string h = to_lower(first);
    return starts_with(h, "job_id,num_gpu,submit_time") ? 10 : 0;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, ',', true);
    const int id = rows.require("job_id"), gpus = rows.require("num_gpu"), submit = rows.require("submit_time"),
              duration = rows.require("duration");
    const int iters = rows.column("iterations"), model = rows.column("model_name");
    while (rows.next()) {
      RowParser p = rows.parser();
      JobSpec j;
      j.id = std::string(trim(p.text(id)));
      j.num_gpus = static_cast<int>(p.integer(gpus, 0));
      j.submit_time = p.number(submit, 0);
      j.duration = p.number(duration, 0);
      if (p.present(iters)) j.total_steps = p.number(iters, 0);
      if (!p.ok()) continue;
      if (j.id.empty()) {
        p.fail(id, "empty job id");
        continue;
      }
      if (model >= 0) j.name = std::string(trim(p.text(model)));
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "tiresias", "Tiresias simulator CSV (job_id,num_gpu,submit_time,iterations,model_name,duration,interval)",
    [] { return std::make_unique<TiresiasReader>(); });

}  // namespace
}  // namespace mlsys::workload
