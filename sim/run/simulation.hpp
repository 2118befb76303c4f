#pragma once
// One simulation of a trace under one configuration (policy, placer, estimator, load factor,
// cluster scale): estimates, cluster, engine run(s) (one per VC for hard partitions, merged), and
// the metrics every mode reports.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/runtime/table.hpp"
#include "core/util/svg_chart.hpp"
#include "core/util/json.hpp"
#include "sched/workload/job.hpp"
#include "sim/cluster/cluster_spec.hpp"
#include "sim/engine/engine.hpp"
#include "sim/engine/failures.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {

struct RunConfig {
  std::string policy, placer, estimator;
  double load_factor = 1;
  double cluster_scale = 1;
  std::string retry_policy = "none";  // sim.retry.policy (swept by compare.retry_policies)
  std::string label() const;  // "sjf/consolidate/oracle" (+ load/scale when not 1, retry when not none)
};

struct SimulationResult {
  RunConfig cfg;
  std::string cluster;              // ClusterSpec::describe()
  std::vector<std::string> vc_names;
  std::vector<int32_t> job_vc;      // VC index per job
  std::vector<int32_t> job_gpus;    // GPUs per job
  std::vector<double> submit;       // after the load factor
  std::vector<double> estimate;
  std::vector<JobRecord> jobs;      // parallel to the trace
  std::vector<Sample> samples;      // whole cluster
  int64_t preemptions = 0, migrations = 0, starts = 0, events = 0;
  double makespan = 0, gpu_seconds = 0;
  int total_gpus = 0;
  std::map<std::string, int64_t> estimate_sources;
  int64_t hint_fallbacks = 0;
};

RunConfig base_config(const SimOptions& o);
// A job's demand as the placers see it: GPUs, share per GPU (clamped to 1..1000), CPU, memory and
// the index of its GPU model in `spec` (-1 = any, also for a model the cluster does not have).
sched::JobInfo demand_of(const workload::JobSpec& j, const ClusterSpec& spec);
// The trace's demand mix for fragmentation-aware placement: classes of (GPUs, share per GPU, CPU,
// GPU type) weighted by their job counts, the `max_classes` most frequent (FGD's typical pods).
std::vector<sched::DemandClass> demand_mix(const std::vector<EngineJob>& jobs, size_t max_classes = 32);
// `progress(done)` (optional) is told the jobs finished so far, over all VC partitions.
// Links slowdown model: each job's network demand (EngineJob::comm_gbps) from its communication
// profile (sim.comm_profiles), GPUs and iteration rate (steps / duration, else 1 / comm_iteration_s).
void set_comm_demand(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, std::vector<EngineJob>& all);
SimulationResult simulate(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const RunConfig& rc, uint64_t seed,
                          const std::function<void(int64_t)>& progress = {});

// ---- metrics ----
struct Dist {
  double avg = 0, p50 = 0, p95 = 0, p99 = 0, p999 = 0;
};
Dist distribution(std::vector<double> v);  // linear interpolation between order statistics
Dist distribution_sorted(const std::vector<double>& sorted);
// Ascending sort of times (radix sort: the order std::sort gives, in linear time).
void sort_values(std::vector<double>& v);

struct Metrics {
  int64_t jobs = 0;
  Dist jct, queue;
  Dist jct_small, jct_large;  // <= 8 GPUs, > 8 GPUs
  Dist queue_small, queue_large;
  int64_t jobs_small = 0, jobs_large = 0;
  double makespan = 0, utilization = 0, avg_frag_gpus = 0, avg_fgd = 0, avg_queue_len = 0;
  int64_t preemptions = 0, migrations = 0;
  FailureMetrics failures;
  std::vector<double> jct_sorted;  // every job's JCT, ascending (the CDF plot)
};
Metrics compute_metrics(const SimulationResult& r);
Json metrics_json(const Metrics& m, const SimulationResult& r);

// Per-job results (jobs.csv), streamed to `path` in constant memory; `progress(done)` is called
// every 65,536 rows when given.
const std::vector<std::string>& jobs_csv_columns();
void write_jobs_csv(const std::filesystem::path& path, const std::vector<workload::JobSpec>& jobs,
                    const SimulationResult& r, const std::function<void(size_t)>& progress = {});
Table timeseries_table(const SimulationResult& r);
Table by_vc_table(const SimulationResult& r);
// One row per configuration; metrics[k] = compute_metrics(runs[k]).
Table summary_table(const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics);

// SVG plots.
std::string jct_cdf_svg(const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics, FigureSize size);
std::string timeseries_svg(const std::vector<SimulationResult>& runs, const std::string& what, FigureSize size);  // util | queue | frag

}  // namespace mlsys::sim
