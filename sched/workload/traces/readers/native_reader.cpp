// Native mlsys CSV (sched/workload/traces/native_csv.hpp): what `tracegen` writes and what users convert to.
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"
#include "sched/workload/traces/native_csv.hpp"

namespace mlsys::workload {
namespace {

class NativeReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    std::string h = to_lower(first);
    return h.find("submit_time") != std::string::npos && h.find("duration") != std::string::npos &&
                   h.find("num_gpus") != std::string::npos
               ? 10
               : 0;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, ',', true);
    const int submit = rows.require("submit_time"), duration = rows.require("duration"),
              gpus = rows.require("num_gpus");
    const int id = rows.column("id"), milli = rows.column("gpu_milli"), cpu = rows.column("cpu_milli"),
              mem = rows.column("memory_mib"), user = rows.column("user"), vc = rows.column("vc"),
              name = rows.column("name"), state = rows.column("state"), type = rows.column("gpu_type"),
              steps = rows.column("total_steps"), cmd = rows.column("command");
    auto opt_text = [&](int c) { return c >= 0 && static_cast<size_t>(c) < rows.fields().size()
                                            ? std::string(rows.fields()[c]) : std::string(); };
    while (rows.next()) {
      RowParser p = rows.parser();
      JobSpec j;
      j.submit_time = p.number(submit, 0);
      j.duration = p.number(duration, 0);
      j.num_gpus = static_cast<int>(p.integer(gpus, 0));
      if (p.present(milli)) {
        j.gpu_milli = static_cast<int>(p.integer(milli, 0));
        if (p.ok() && j.gpu_milli > 1000) p.fail(milli, "must be <= 1000 (thousandths of one GPU)");
      }
      if (p.present(cpu)) j.cpu_milli = p.integer(cpu, 0);
      if (p.present(mem)) j.memory_mib = p.integer(mem, 0);
      if (p.present(steps)) j.total_steps = p.number(steps, 0);
      if (!p.ok()) continue;
      j.id = opt_text(id);
      if (j.id.empty()) j.id = std::to_string(rows.line() - 1);
      j.user = opt_text(user);
      j.vc = opt_text(vc);
      j.name = opt_text(name);
      j.gpu_type = opt_text(type);
      j.command = opt_text(cmd);
      if (p.present(state)) j.state = parse_job_state(p.text(state));
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "native", "mlsys native CSV (id,submit_time,duration,num_gpus,...; see docs/traces.md); tracegen writes it",
    [] { return std::make_unique<NativeReader>(); });

}  // namespace
}  // namespace mlsys::workload
