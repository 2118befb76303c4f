#include "sched/workload/traces/gavel_throughputs.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::workload {

GavelThroughputs GavelThroughputs::load(const std::string& path) {
  GavelThroughputs t;
  CsvReader in(path);
  in.read_header();
  while (in.next()) {
    const auto& f = in.fields();
    auto where = [&] { return in.where() + ": "; };
    if (!in.complete() || f.size() < 4)
      throw InputError(where() + "expected gpu_type,job_type,scale_factor,isolated_steps_per_sec");
    auto scale = parse_int(f[2]);
    auto sps = parse_double(f[3]);
    if (!scale || *scale < 1) throw InputError(where() + "column 3 (scale_factor): not a positive integer");
    if (!sps || *sps < 0) throw InputError(where() + "column 4 (isolated_steps_per_sec): not a number >= 0");
    // Gavel writes 0.0 for a job that does not fit that GPU type at that scale: treat as missing.
    if (*sps == 0) continue;
    t.add(std::string(f[0]), std::string(f[1]), static_cast<int>(*scale), *sps);
  }
  if (t.size() == 0) throw InputError(path + ": no throughput rows");
  return t;
}

void GavelThroughputs::add(const std::string& gpu_type, const std::string& job_type, int scale, double sps) {
  rates_[{gpu_type, job_type, scale}] = sps;
}

std::optional<GavelThroughputs::Rate> GavelThroughputs::rate(const std::string& gpu_type,
                                                             const std::string& job_type, int scale) const {
  auto it = rates_.find({gpu_type, job_type, scale});
  if (it != rates_.end()) return Rate{it->second, false};
  it = rates_.find({gpu_type, job_type, 1});
  if (it != rates_.end()) return Rate{it->second * scale, true};
  return std::nullopt;
}

bool GavelThroughputs::has_gpu_type(const std::string& gpu_type) const {
  return std::any_of(rates_.begin(), rates_.end(), [&](const auto& kv) { return std::get<0>(kv.first) == gpu_type; });
}

double gavel_duration(double total_steps, double steps_per_sec) {
  return std::max(1.0, std::floor(total_steps / steps_per_sec + 0.5));
}

bool set_gavel_duration(ReadContext& ctx, RowParser& row, JobSpec& job) {
  const std::string& gpu = ctx.options().gpu_type;
  auto rate = ctx.throughputs().rate(gpu, job.name, job.num_gpus);
  if (!rate) {
    row.fail(0, "no throughput for this job type on " + gpu + " in the throughputs file");
    return false;
  }
  // gpu_type stays "" (any): the type only sets the duration; Gavel jobs run on every type.
  job.duration = gavel_duration(job.total_steps, rate->steps_per_sec);
  return true;
}

}  // namespace mlsys::workload
