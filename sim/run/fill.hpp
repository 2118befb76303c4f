#pragma once
// `mlsys simulate fill`: the fragmentation experiment of the FGD paper (Weng et al., "Beware of
// Fragmentation", ATC'23, section 6). Pods arrive one at a time in trace order (or a seeded
// shuffle / resample of the trace), never finish, and each is placed by the placer at once or
// fails (and is dropped, as in the paper's Kubernetes simulator); the replay stops when the
// arrived GPU demand reaches `max_arrived_pct` of the cluster's GPU capacity. Recorded against
// arrived demand: allocated GPUs, unallocated GPUs (capacity - allocated; once arrivals pass 100%
// every unallocated GPU is stranded by fragmentation), pods that failed and the cluster's FGD
// fragmentation score. Timing, durations and VCs of the trace are ignored.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/runtime/table.hpp"
#include "core/util/svg_chart.hpp"
#include "sched/workload/job.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {

struct FillOptions {
  std::string order = "trace";   // trace | shuffle | sample
  double max_arrived_pct = 100;  // stop once arrived GPU demand reaches this % of capacity
  double step_pct = 1;           // one recorded point per step of arrived demand
  int repeats = 1;               // runs averaged (seeds seed, seed+1, ...); for shuffle/sample/random
  std::vector<double> report_pcts = {80, 90, 95, 100};  // arrived levels shown in the table
};

const config::Section<FillOptions>& fill_section();

struct FillPoint {
  double arrived_pct = 0;       // grid value: GPU demand arrived so far, % of capacity
  double allocated_pct = 0;     // allocated GPU share, % of capacity
  double unallocated_gpus = 0;  // capacity - allocated, in GPUs
  double failed_pods = 0;       // pods that could not be placed so far
  double failed_gpus = 0;       // their GPU demand
  double frag_gpus = 0;         // FGD score: free GPU share the trace's demand mix could not use
};

struct FillCurve {
  std::string placer;
  int total_gpus = 0;
  int repeats = 0;
  std::vector<FillPoint> points;  // averaged over repeats
  double first_failure_pct = 0;   // arrived % when the first pod failed (max_arrived_pct if none), mean
  double pods = 0;                // pods arrived, mean
};

// One placer's curve (averaged over f.repeats runs). The cluster comes from o.cluster().
FillCurve fill_replay(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const FillOptions& f,
                      const std::string& placer, uint64_t seed);

Table fill_table(const std::vector<FillCurve>& curves);                         // fill.csv: every point
Table fill_report(const std::vector<FillCurve>& curves, const FillOptions& f);   // the printed table
// SVG: "unallocated" (unallocated GPU % vs arrived %, from 70% arrived) or "frag" (FGD score vs
// arrived %).
std::string fill_svg(const std::vector<FillCurve>& curves, const std::string& what, FigureSize size);

}  // namespace mlsys::sim
