// Alibaba PAI GPU-sharing trace 2023 ("openb", alibaba/clusterdata cluster-trace-gpu-v2023) pod list:
//   name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
// gpu_milli < 1000 is a fractional GPU share. submit = creation_time, duration = deletion_time -
// scheduled_time (creation_time when unscheduled). Variants without the time columns (multigpu50)
// give submit 0 and duration 0, kept in file order. gpu_spec ("V100M16|V100M32") -> gpu_type.
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {
namespace {

class OpenbReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    return starts_with(to_lower(first), "name,cpu_milli,memory_mib,num_gpu,gpu_milli") ? 10 : 0;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, ',', true);
    const int name = rows.require("name"), cpu = rows.require("cpu_milli"), mem = rows.require("memory_mib"),
              gpus = rows.require("num_gpu"), milli = rows.require("gpu_milli");
    const int spec = rows.column("gpu_spec"), qos = rows.column("qos"), phase = rows.column("pod_phase"),
              created = rows.column("creation_time"), deleted = rows.column("deletion_time"),
              scheduled = rows.column("scheduled_time");
    while (rows.next()) {
      RowParser p = rows.parser();
      JobSpec j;
      j.id = std::string(trim(p.text(name)));
      j.cpu_milli = p.integer(cpu, 0);
      j.memory_mib = p.integer(mem, 0);
      j.num_gpus = static_cast<int>(p.integer(gpus, 0));
      int64_t m = p.integer(milli, 0);
      if (p.ok() && m > 1000) p.fail(milli, "must be <= 1000 (thousandths of one GPU)");
      if (p.ok() && j.num_gpus > 1 && m != 1000 && m != 0)
        p.fail(milli, "a pod with several GPUs must use whole GPUs (1000)");
      // CPU-only pods carry gpu_milli 0; JobSpec keeps 1000 ("whole") for them, num_gpus = 0.
      j.gpu_milli = j.num_gpus == 0 || m == 0 ? 1000 : static_cast<int>(m);
      if (p.ok() && j.num_gpus == 1 && m == 0) j.num_gpus = 0;
      if (created >= 0 && deleted >= 0) {
        double c = p.number(created, 0);
        double d = p.number(deleted, 0);
        double s = c;
        if (p.present(scheduled)) s = p.number(scheduled, 0);
        if (p.ok() && d < s) p.fail(deleted, "deletion_time before scheduled_time");
        j.submit_time = c;
        j.duration = d - s;
      }
      if (!p.ok()) continue;
      if (spec >= 0) j.gpu_type = std::string(trim(p.text(spec)));
      if (qos >= 0) j.name = std::string(trim(p.text(qos)));  // LS/BE/Burstable: the pod's class
      if (phase >= 0) {
        std::string ph = to_lower(trim(p.text(phase)));
        j.state = ph == "failed" ? JobState::Failed : ph == "pending" ? JobState::Unknown : JobState::Completed;
      }
      j.user = "";
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "openb", "Alibaba openb 2023 GPU-sharing pod list (cpu_milli, memory_mib, num_gpu, fractional gpu_milli)",
    [] { return std::make_unique<OpenbReader>(); });

}  // namespace
}  // namespace mlsys::workload
