#include "sim/run/fill.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "core/util/svg_chart.hpp"
#include "sched/api/placer.hpp"
#include "sched/placement/fragmentation.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "sim/run/simulation.hpp"

namespace mlsys::sim {

const config::Section<FillOptions>& fill_section() {
  using F = FillOptions;
  static const config::Section<F> s("fill", "simulate fill: pods arrive until the cluster is full and never finish (FGD paper's fragmentation experiment)", [](auto& s) {
    s.field("order", &F::order, "trace: pods in trace order (repeated from the start when the trace runs out); shuffle: a seeded permutation (a new one each pass); sample: seeded draws with replacement from the trace")
        .choices({"trace", "shuffle", "sample"});
    s.field("max_arrived_pct", &F::max_arrived_pct, "Stop once the arrived GPU demand reaches this % of the cluster's GPU capacity").range(1, 1000);
    s.field("step_pct", &F::step_pct, "A point of fill.csv every this many % of arrived GPU demand").range(0.01, 100);
    s.field("repeats", &F::repeats, "Runs averaged per placer, with seeds seed, seed+1, ... (orders shuffle/sample and the random placer)").range(1, 1000);
    s.field("report_pcts", &F::report_pcts, "Arrived GPU demand levels (% of capacity) shown as columns of the printed table");
  });
  return s;
}

namespace {

struct OneRun {
  std::vector<FillPoint> points;
  double first_failure_pct = -1;
  int64_t pods = 0;
};

// Next pod index in the configured order.
constexpr uint64_t kPodOrderStream = 0x706f64;  // "pod"
class PodOrder {
 public:
  // Its own stream (derive_seed), so the order does not repeat the random placer's draws.
  PodOrder(const std::string& order, size_t n, uint64_t seed)
      : order_(order), n_(n), rng_(derive_seed(seed, kPodOrderStream)) {}
  size_t next() {
    if (order_ == "sample") return static_cast<size_t>(rng_.below(n_));
    if (pos_ == 0 && order_ == "shuffle") {
      perm_.resize(n_);
      for (size_t i = 0; i < n_; ++i) perm_[i] = i;
      rng_.shuffle(perm_);
    }
    size_t i = order_ == "shuffle" ? perm_[pos_] : pos_;
    pos_ = (pos_ + 1) % n_;
    return i;
  }

 private:
  std::string order_;
  size_t n_, pos_ = 0;
  Rng rng_;
  std::vector<size_t> perm_;
};

OneRun run_once(const std::vector<EngineJob>& pods, const ClusterSpec& spec, const std::vector<sched::DemandClass>& workload,
                const FillOptions& f, const std::string& placer, uint64_t seed) {
  sched::ClusterState state = whole_state(spec);
  sched::PlacerParams pp;
  pp.seed = seed;
  pp.workload = workload;
  auto p = sched::placer_registry().create(placer, pp);
  PodOrder order(f.order, pods.size(), seed);
  const double capacity = static_cast<double>(state.total_gpus()) * 1000;
  const int steps = std::max(1, static_cast<int>(std::lround(f.max_arrived_pct / f.step_pct)));
  OneRun r;
  int64_t arrived = 0, failed = 0, failed_milli = 0;
  int k = 1;
  sched::Allocation a;
  LongLoop loop("fill", 0, "pods placed", LongLoop::Report());  // stop checks only: runs go in parallel
  while (k <= steps) {
    loop.tick(static_cast<uint64_t>(r.pods));
    sched::JobInfo job = pods[order.next()].info;
    job.id = static_cast<sched::JobId>(r.pods++);
    const int64_t demand = int64_t{job.num_gpus} * job.gpu_milli;
    arrived += demand;
    a.clear();
    if (p->place(job, state, a)) {
      std::string err = state.check(job, a);
      if (!err.empty()) throw Error(fmt::format("placer '{}' made an invalid placement of pod {}: {}", placer, job.id, err));
      state.allocate(job, a);
    } else {
      ++failed;
      failed_milli += demand;
      if (r.first_failure_pct < 0) r.first_failure_pct = 100.0 * static_cast<double>(arrived) / capacity;
    }
    while (k <= steps && 100.0 * static_cast<double>(arrived) >= k * f.step_pct * capacity) {
      FillPoint pt;
      pt.arrived_pct = k * f.step_pct;
      pt.allocated_pct = 100.0 * static_cast<double>(state.used_milli()) / capacity;
      pt.unallocated_gpus = static_cast<double>(state.total_free_milli()) / 1000.0;
      pt.failed_pods = static_cast<double>(failed);
      pt.failed_gpus = static_cast<double>(failed_milli) / 1000.0;
      pt.frag_gpus = sched::cluster_fragmentation(state, workload) / 1000.0;
      r.points.push_back(pt);
      ++k;
    }
  }
  if (r.first_failure_pct < 0) r.first_failure_pct = f.max_arrived_pct;
  return r;
}

// The point fields averaged over repeats.
constexpr double FillPoint::*kAveraged[] = {&FillPoint::allocated_pct, &FillPoint::unallocated_gpus, &FillPoint::failed_pods,
                                            &FillPoint::failed_gpus, &FillPoint::frag_gpus};

constexpr double kPlotFromPct = 70;  // unallocated.svg starts here (below, unallocated = not yet arrived)

}  // namespace

FillCurve fill_replay(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const FillOptions& f, const std::string& placer,
                      uint64_t seed) {
  if (jobs.empty()) throw ConfigError("simulate fill: the trace has no jobs");
  ClusterSpec spec = build_cluster(o.cluster, {});
  std::vector<EngineJob> pods(jobs.size());
  int64_t gpu_demand = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    pods[i].info = demand_of(jobs[i], spec);
    gpu_demand += int64_t{pods[i].info.num_gpus} * pods[i].info.gpu_milli;
  }
  if (gpu_demand == 0) throw ConfigError("simulate fill: no job of the trace requests a GPU, so the cluster never fills");
  if (spec.total_gpus() == 0) throw ConfigError("simulate fill: the cluster has no GPUs");
  const auto workload = demand_mix(pods);
  FillCurve c;
  c.placer = placer;
  c.total_gpus = spec.total_gpus();
  c.repeats = f.repeats;
  for (int rep = 0; rep < f.repeats; ++rep) {
    OneRun r = run_once(pods, spec, workload, f, placer, seed + static_cast<uint64_t>(rep));
    if (c.points.empty()) c.points.resize(r.points.size());
    for (size_t i = 0; i < r.points.size(); ++i) {
      c.points[i].arrived_pct = r.points[i].arrived_pct;
      for (auto m : kAveraged) c.points[i].*m += r.points[i].*m / f.repeats;
    }
    c.first_failure_pct += r.first_failure_pct / f.repeats;
    c.pods += static_cast<double>(r.pods) / f.repeats;
  }
  return c;
}

Table fill_table(const std::vector<FillCurve>& curves) {
  Table t({"placer", "arrived_pct", "allocated_pct", "unallocated_gpus", "unallocated_pct", "failed_pods", "failed_gpus",
           "frag_gpus"});
  for (const auto& c : curves)
    for (const auto& p : c.points)
      t.add_row({c.placer, p.arrived_pct, p.allocated_pct, p.unallocated_gpus, 100.0 * p.unallocated_gpus / c.total_gpus,
                 p.failed_pods, p.failed_gpus, p.frag_gpus});
  return t;
}

Table fill_report(const std::vector<FillCurve>& curves, const FillOptions& f) {
  std::vector<std::string> cols = {"placer", "first_fail_pct"};
  for (double p : f.report_pcts) cols.push_back("unalloc%@" + format_number(p));
  cols.insert(cols.end(), {"unalloc_gpus", "frag_gpus", "failed_pods"});
  Table t(cols);
  t.set_precision(2);
  for (const auto& c : curves) {
    std::vector<Table::Cell> row = {c.placer, c.first_failure_pct};
    for (double p : f.report_pcts) {
      // The recorded point nearest to p (points are on the step grid).
      const FillPoint* best = nullptr;
      for (const auto& x : c.points)
        if (!best || std::abs(x.arrived_pct - p) < std::abs(best->arrived_pct - p)) best = &x;
      row.push_back(best ? 100.0 * best->unallocated_gpus / c.total_gpus : 0.0);
    }
    const FillPoint last = c.points.empty() ? FillPoint{} : c.points.back();
    row.push_back(last.unallocated_gpus);
    row.push_back(last.frag_gpus);
    row.push_back(last.failed_pods);
    t.add_row(std::move(row));
  }
  return t;
}

std::string fill_svg(const std::vector<FillCurve>& curves, const std::string& what, FigureSize size) {
  std::vector<ChartSeries> series;
  for (const auto& c : curves) {
    ChartSeries s;
    s.name = c.placer;
    for (const auto& p : c.points) {
      if (what != "frag" && p.arrived_pct < kPlotFromPct) continue;  // the interesting part: near full
      s.x.push_back(p.arrived_pct);
      s.y.push_back(what == "frag" ? p.frag_gpus : 100.0 * p.unallocated_gpus / c.total_gpus);
    }
    series.push_back(std::move(s));
  }
  ChartOptions o;
  o.size = size;
  o.x_label = "arrived GPU demand (% of cluster GPU capacity)";
  if (what == "frag") {
    o.title = "FGD fragmentation score as the cluster fills";
    o.y_label = "fragmented GPUs (FGD score)";
  } else {
    o.title = "Unallocated GPUs as the cluster fills (arrived >= 70%)";
    o.y_label = "unallocated GPUs (% of capacity)";
  }
  return line_chart_svg(series, o);
}

}  // namespace mlsys::sim
