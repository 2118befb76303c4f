// Alibaba PAI 2020 GPU trace (alibaba/clusterdata cluster-trace-gpu-v2020), headerless CSV tables:
//   pai_job_table.csv:  job_name,inst_id,user,status,start_time,end_time
//   pai_task_table.csv: job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
// Point trace.path at either table; the sibling is found by name. A job's demand is the sum over its
// tasks of inst_num x per-instance plan (plan_cpu in % of a core, plan_mem in GB, plan_gpu in % of a
// GPU: 50 = half a GPU, 200 = two GPUs). submit = the job's start_time (its submission), duration =
// latest task end - earliest task start (the job's own times when tasks lack them). Without a job
// table, jobs come from the tasks alone (no user). The task table is held in memory per job.
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {
namespace {

namespace fs = std::filesystem;

struct Demand {
  int64_t gpus = 0;
  int frac_milli = 0;  // largest fractional share of one instance
  bool fractional = false;
  bool whole = false;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  double start = -1, end = -1;
  std::string gpu_type;
  size_t order = 0;
};

std::string sibling(const std::string& path, const std::string& from, const std::string& to) {
  std::string name = fs::path(path).filename().string();
  auto pos = name.find(from);
  if (pos == std::string::npos) return "";
  name.replace(pos, from.size(), to);
  return (fs::path(path).parent_path() / name).string();
}

class Pai2020Reader final : public TraceReader {
 public:
  int detect(std::string_view name, std::string_view) const override {
    return name.find("pai_job_table") != std::string_view::npos ||
                   name.find("pai_task_table") != std::string_view::npos
               ? 10
               : 0;
  }

  void read(ReadContext& ctx) override {
    const std::string given = ctx.file();
    std::string task_path = given, job_path;
    if (given.find("pai_job_table") != std::string::npos) {
      job_path = given;
      task_path = sibling(given, "pai_job_table", "pai_task_table");
      if (task_path.empty() || !fs::exists(task_path))
        throw Error(given + ": PAI job table needs its task table (GPU demands) next to it: " + task_path);
    } else {
      std::string j = sibling(given, "pai_task_table", "pai_job_table");
      if (!j.empty() && fs::exists(j)) job_path = j;
    }
    std::unordered_map<std::string, Demand> demand;
    std::vector<std::string> order;
    ctx.set_file(task_path);
    read_tasks(ctx, demand, order);
    if (job_path.empty()) {
      for (const auto& name : order) {
        const Demand& d = demand[name];
        JobSpec j = make_job(name, d);
        j.submit_time = std::max(0.0, d.start);
        j.duration = d.start >= 0 && d.end >= d.start ? d.end - d.start : 0;
        if (!ctx.emit(std::move(j))) return;
      }
      return;
    }
    ctx.set_file(job_path);
    CsvRows rows(ctx, ',', false);
    rows.set_names({"job_name", "inst_id", "user", "status", "start_time", "end_time"});
    bool first = true;
    while (rows.next()) {
      if (first && to_lower(trim(rows.fields()[0])) == "job_name") {  // optional header
        first = false;
        continue;
      }
      first = false;
      RowParser p = rows.parser();
      if (!p.need(6)) continue;
      std::string name(trim(p.text(0)));
      double start = p.seconds(4);
      double end = trim(p.text(5)).empty() ? -1 : p.seconds(5);
      if (!p.ok()) continue;
      auto it = demand.find(name);
      if (it == demand.end()) {
        ctx.skip_row("pai job without tasks");
        continue;
      }
      const Demand& d = it->second;
      JobSpec j = make_job(name, d);
      j.submit_time = start;
      if (d.start >= 0 && d.end >= d.start) j.duration = d.end - d.start;
      else if (end >= start) j.duration = end - start;
      else {
        ctx.skip_row("pai job without an end time");
        continue;
      }
      j.user = std::string(trim(p.text(2)));
      j.state = parse_job_state(p.text(3));
      if (!ctx.emit(std::move(j))) return;
    }
  }

 private:
  static JobSpec make_job(const std::string& name, const Demand& d) {
    JobSpec j;
    j.id = name;
    j.num_gpus = static_cast<int>(std::min<int64_t>(d.gpus, int64_t{kMaxGpus} + 1));  // too many: a bad row
    j.gpu_milli = d.fractional && !d.whole ? d.frac_milli : 1000;
    j.cpu_milli = d.cpu_milli;
    j.memory_mib = d.memory_mib;
    j.gpu_type = d.gpu_type;
    return j;
  }

  static void read_tasks(ReadContext& ctx, std::unordered_map<std::string, Demand>& demand,
                         std::vector<std::string>& order) {
    CsvRows rows(ctx, ',', false);
    rows.set_names({"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu", "plan_mem",
                    "plan_gpu", "gpu_type"});
    bool first = true;
    auto opt = [](RowParser& p, size_t c) { return trim(p.text(c)).empty() ? 0.0 : p.number(c, 0); };
    while (rows.next()) {
      if (first && to_lower(trim(rows.fields()[0])) == "job_name") {
        first = false;
        continue;
      }
      first = false;
      RowParser p = rows.parser();
      if (!p.need(10)) continue;
      std::string name(trim(p.text(0)));
      // Instances: a whole count (2.7 or -1 used to become 2 and 1), bounded like a GPU count so the
      // sums below cannot overflow; blank means one.
      const int64_t inst = trim(p.text(2)).empty() ? 1 : p.gpu_count(2, 0);
      double start = trim(p.text(4)).empty() ? -1 : p.seconds(4);
      double end = trim(p.text(5)).empty() ? -1 : p.seconds(5);
      double cpu = opt(p, 6), mem = opt(p, 7), gpu = opt(p, 8);
      // Bounds far above any real cluster keep the sums below from overflowing.
      if (p.ok() && cpu > 1e7) p.fail(6, "must be <= 1e7 (% of a core)");
      if (p.ok() && mem > 1e7) p.fail(7, "must be <= 1e7 (GB)");
      if (p.ok() && gpu > 100.0 * kMaxGpus) p.fail(8, "must be <= " + std::to_string(100 * kMaxGpus) + " (% of a GPU)");
      if (!p.ok()) continue;
      auto [it, added] = demand.try_emplace(name);
      Demand& d = it->second;
      if (added) {
        d.order = order.size();
        order.push_back(name);
      }
      const int64_t n = std::max<int64_t>(inst, 1);  // a task runs at least one instance
      d.cpu_milli += n * static_cast<int64_t>(std::llround(cpu * 10));
      d.memory_mib += n * static_cast<int64_t>(std::llround(mem * 1024));
      if (gpu > 0) {
        if (gpu < 100) {
          d.gpus += n;
          d.fractional = true;
          d.frac_milli = std::max(d.frac_milli, static_cast<int>(std::llround(gpu * 10)));
        } else {
          d.gpus += n * static_cast<int64_t>(std::ceil(gpu / 100 - 1e-9));
          d.whole = true;
        }
      }
      if (start >= 0 && (d.start < 0 || start < d.start)) d.start = start;
      if (end >= 0 && end > d.end) d.end = end;
      std::string type(trim(p.text(9)));
      if (!type.empty() && d.gpu_type.empty()) d.gpu_type = type;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "pai2020", "Alibaba PAI 2020 pai_job_table.csv + pai_task_table.csv (headerless; GPU demand in % of a GPU)",
    [] { return std::make_unique<Pai2020Reader>(); });

}  // namespace
}  // namespace mlsys::workload
