// SenseTime Helios job log (HeliosData cluster_log.csv), columns found by header name:
//   job_id,user,vc,[jobname,]gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue
// Times are 'YYYY-MM-DD HH:MM:SS' (UTC); time 0 is trace.time_origin or midnight of the first row's
// day. duration = the duration column, else end_time - start_time. The Helios reference inputs
// (../shared/reference/helios_gavel/cluster_log.csv, "Philly" variant) read with the same reader.
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {
namespace {

class HeliosReader final : public TraceReader {
 public:
  int detect(std::string_view name, std::string_view first) const override {
    std::string h = to_lower(first);
    bool cols = h.find("gpu_num") != std::string::npos && h.find("submit_time") != std::string::npos &&
                h.find("vc") != std::string::npos;
    if (!cols) return 0;
    return name.find("cluster_log") != std::string_view::npos ? 10 : 8;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, ',', true);
    const int vc = rows.require("vc"), gpus = rows.require("gpu_num"), submit = rows.require("submit_time");
    const int duration = rows.column("duration"), start = rows.column("start_time"), end = rows.column("end_time");
    if (duration < 0 && (start < 0 || end < 0)) rows.require("duration");  // names the missing column
    const int id = rows.column("job_id"), user = rows.column("user"), name = rows.column("jobname"),
              cpu = rows.column("cpu_num"), state = rows.column("state");
    while (rows.next()) {
      RowParser p = rows.parser();
      JobSpec j;
      j.vc = std::string(trim(p.text(vc)));
      j.num_gpus = static_cast<int>(p.integer(gpus, 0));
      int64_t sub = p.datetime(submit);
      if (p.present(duration)) {
        j.duration = p.number(duration, 0);
      } else if (start >= 0 && end >= 0) {
        int64_t s = p.datetime(start), e = p.datetime(end);
        if (p.ok() && e < s) p.fail(end, "end_time before start_time");
        j.duration = static_cast<double>(e - s);
      } else {
        p.fail(duration, "empty duration and no start/end times");
      }
      if (p.present(cpu)) j.cpu_milli = p.integer(cpu, 0) * 1000;
      if (!p.ok()) continue;
      j.submit_time = ctx.relative_time(sub);
      if (id >= 0) j.id = std::string(trim(p.text(id)));
      if (j.id.empty()) j.id = std::to_string(rows.line() - 1);
      if (user >= 0) j.user = std::string(trim(p.text(user)));
      if (name >= 0) j.name = std::string(trim(p.text(name)));
      if (state >= 0) j.state = parse_job_state(p.text(state));
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "helios", "SenseTime Helios cluster_log.csv (job_id,user,vc,gpu_num,...,submit_time,...,duration; datetimes)",
    [] { return std::make_unique<HeliosReader>(); });

}  // namespace
}  // namespace mlsys::workload
