#pragma once
// A trace at a glance, to check it before simulating (`mlsys simulate stats`): jobs, GPU-hours,
// GPU demand and duration distributions, arrival rate per hour, and breakdowns by VC and state.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/table.hpp"
#include "core/util/json.hpp"
#include "core/util/svg_chart.hpp"
#include "sched/workload/job.hpp"

namespace mlsys::workload {

struct Quantiles {
  double mean = 0, min = 0, p10 = 0, p25 = 0, p50 = 0, p75 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};
// Linear interpolation between order statistics (R's type 7). Empty input gives zeros.
Quantiles quantiles(std::vector<double> values);

struct TraceStats {
  struct Bucket {  // GPU demand class
    std::string label;  // "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64"
    int64_t jobs = 0;
    double gpu_hours = 0;
  };
  struct Group {  // one VC or state
    std::string key;
    int64_t jobs = 0;
    double gpu_hours = 0;
    double mean_gpus = 0;
    double median_duration_s = 0;
  };

  int64_t jobs = 0;
  int64_t gpu_jobs = 0;         // num_gpus > 0
  int64_t fractional_jobs = 0;  // gpu_milli < 1000
  double gpu_hours = 0;         // sum of num_gpus x gpu_milli/1000 x duration / 3600
  double first_submit_s = 0, last_submit_s = 0;
  double arrivals_per_hour = 0;  // jobs / submit span in hours (span at least one hour)
  Quantiles duration_s, num_gpus, hourly_arrivals;
  std::vector<Bucket> demand;
  std::vector<int64_t> arrivals_by_hour;  // jobs per hour from the first submit's hour
  // Duration histogram: jobs with duration in [10^(k/4), 10^((k+1)/4)) seconds for k = 0, 1, ...
  // (four bins per decade; durations below 1 s count in the first).
  std::vector<int64_t> duration_bins;
  std::vector<Group> by_vc, by_state;

  // Named tables: overview, demand, distributions, arrivals_per_hour, by_vc, by_state.
  std::vector<std::pair<std::string, Table>> to_tables() const;
  // Named SVG charts (core/util/svg_chart.hpp) at a figure size: demand.svg (jobs per GPU-demand
  // class), durations.svg (duration histogram, log scale), arrivals.svg (jobs per hour),
  // vc_gpu_hours.svg (GPU-hours per VC, largest first). Demand and VCs are categorical bar charts:
  // filled bars labelled with their class or VC, each with its value on top.
  std::vector<std::pair<std::string, std::string>> to_svgs(FigureSize size) const;
  Json to_json() const;
};

TraceStats compute_trace_stats(const std::vector<JobSpec>& jobs);

}  // namespace mlsys::workload
