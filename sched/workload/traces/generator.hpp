#pragma once
// Synthetic trace generator (the `tracegen` section): Poisson or bursty (two-state on/off MMPP)
// arrivals, GPU demand from a discrete distribution (Philly-like by default), durations from the
// Philly runtime distribution (empirical quantiles of philly_runtimes.csv, the built-in fit when
// it is absent, or a log-normal), users/VCs/job names. Seeded: same options + seed = same jobs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "sched/workload/job.hpp"

namespace mlsys::workload {

struct TracegenOptions {
  int64_t jobs = 1000;
  std::string arrival = "poisson";   // poisson | bursty
  double rate_per_hour = 60;         // mean arrival rate over the whole trace
  double burst_factor = 5;           // bursty: rate in the on state = factor x rate_per_hour
  double burst_on_s = 1800;          // bursty: mean length of an on period (exponential)
  double burst_off_s = 7200;         // bursty: mean length of an off period
  std::vector<int64_t> gpu_values;   // empty = Philly-like {1,2,4,8,16,24,32,64}
  std::vector<double> gpu_weights;   // relative weights for gpu_values (empty = Philly counts)
  std::string duration = "empirical";  // empirical | lognormal
  std::string runtimes_file = "builtin";  // the built-in Philly quantile table, or a runtimes CSV
  double lognormal_mu = 6.845852;    // ln(seconds), fitted to philly_runtimes.csv
  double lognormal_sigma = 2.181440;
  double min_duration_s = 1;
  double max_duration_s = 0;         // 0 = no cap
  int64_t users = 100;
  int64_t vcs = 10;                  // user u belongs to VC u mod vcs
  double failed_fraction = 0;        // share of jobs marked failed
  double killed_fraction = 0;        // share marked killed
  std::string out;                   // native CSV written by `mlsys simulate tracegen` ("" = run folder)
};

const config::Section<TracegenOptions>& tracegen_section();

// Streams generated jobs one at a time (constant memory).
class TraceGenerator {
 public:
  TraceGenerator(const TracegenOptions& opts, uint64_t seed);
  ~TraceGenerator();
  TraceGenerator(const TraceGenerator&) = delete;
  TraceGenerator& operator=(const TraceGenerator&) = delete;
  // Fills `job` with the next job; false after opts.jobs jobs.
  bool next(JobSpec& job);
  // Which duration source is used: "file:<path>", "builtin-quantiles" or "lognormal".
  const std::string& duration_source() const;

 private:
  struct Impl;
  Impl* impl_;
};

std::vector<JobSpec> generate_trace(const TracegenOptions& opts, uint64_t seed);
// Generates straight into a native CSV file (streamed, atomic); returns the number of jobs.
// Progress and stops by time (core/process/long_loop.hpp): a signal stops it within a beat with
// Interrupted, leaving no file. `duration_source` (optional) receives
// TraceGenerator::duration_source().
int64_t generate_trace_file(const TracegenOptions& opts, uint64_t seed, const std::string& path,
                            std::string* duration_source = nullptr);

}  // namespace mlsys::workload
