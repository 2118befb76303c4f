#include "sched/workload/traces/openb_nodes.hpp"

#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {

std::vector<NodeListEntry> read_openb_nodes(const std::string& path) {
  TraceOptions opts;  // strict: any bad row throws
  TraceSummary summary;
  ReadShared shared;
  JobSink none = [](JobSpec&&) { return true; };
  ReadContext ctx(path, opts, summary, none, shared);
  CsvRows rows(ctx, ',', true);
  const int sn = rows.require("sn"), cpu = rows.require("cpu_milli"), mem = rows.require("memory_mib"),
            gpu = rows.require("gpu"), model = rows.column("model");
  std::vector<NodeListEntry> out;
  while (rows.next()) {
    RowParser p = rows.parser();
    NodeListEntry n;
    n.name = std::string(trim(p.text(sn)));
    n.cpu_milli = p.integer(cpu, 0);
    n.memory_mib = p.integer(mem, 0);
    n.gpus = static_cast<int>(p.integer(gpu, 0));
    if (model >= 0) n.gpu_model = std::string(trim(p.text(model)));
    if (n.gpus > 0 && n.gpu_model.empty()) p.fail(static_cast<size_t>(model < 0 ? gpu : model), "GPU node without a model");
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace mlsys::workload
