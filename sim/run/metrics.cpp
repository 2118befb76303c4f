#include <algorithm>
#include <cmath>

#include "core/util/stats.hpp"
#include "core/util/svg_chart.hpp"
#include "sim/run/simulation.hpp"

namespace mlsys::sim {

Dist distribution(std::vector<double> v) {
  Dist d;
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  d.avg = sum / static_cast<double>(v.size());
  auto q = [&](double p) { return quantile_sorted(v, p); };
  d.p50 = q(0.5);
  d.p95 = q(0.95);
  d.p99 = q(0.99);
  d.p999 = q(0.999);
  return d;
}

namespace {

Json dist_json(const Dist& d) {
  Json j = Json::object();
  j["avg"] = d.avg;
  j["p50"] = d.p50;
  j["p95"] = d.p95;
  j["p99"] = d.p99;
  j["p99.9"] = d.p999;
  return j;
}

double jct_of(const SimulationResult& r, size_t i) { return r.jobs[i].end - r.submit[i]; }

}  // namespace

Metrics compute_metrics(const SimulationResult& r) {
  Metrics m;
  m.jobs = static_cast<int64_t>(r.jobs.size());
  m.failures = failure_metrics(r.jobs);
  std::vector<double> jct, q, js, jl, qs, ql;
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    double c = jct_of(r, i), w = r.jobs[i].queue_delay;
    jct.push_back(c);
    q.push_back(w);
    if (r.job_gpus[i] <= 8) {
      js.push_back(c);
      qs.push_back(w);
    } else {
      jl.push_back(c);
      ql.push_back(w);
    }
  }
  m.jobs_small = static_cast<int64_t>(js.size());
  m.jobs_large = static_cast<int64_t>(jl.size());
  m.jct = distribution(jct);
  m.queue = distribution(q);
  m.jct_small = distribution(js);
  m.jct_large = distribution(jl);
  m.queue_small = distribution(qs);
  m.queue_large = distribution(ql);
  m.makespan = r.makespan;
  m.utilization = r.makespan > 0 && r.total_gpus > 0 ? r.gpu_seconds / (r.makespan * r.total_gpus) : 0;
  m.preemptions = r.preemptions;
  m.migrations = r.migrations;
  double f = 0, g = 0, ql_sum = 0;
  for (const auto& s : r.samples) {
    f += s.frag_gpus;
    g += s.fgd;
    ql_sum += static_cast<double>(s.pending);
  }
  if (!r.samples.empty()) {
    const double k = static_cast<double>(r.samples.size());
    m.avg_frag_gpus = f / k;
    m.avg_fgd = g / k;
    m.avg_queue_len = ql_sum / k;
  }
  return m;
}

Json metrics_json(const Metrics& m, const SimulationResult& r) {
  Json j = Json::object();
  j["config"] = r.cfg.label();
  j["policy"] = r.cfg.policy;
  j["placer"] = r.cfg.placer;
  j["estimator"] = r.cfg.estimator;
  j["load_factor"] = r.cfg.load_factor;
  j["cluster_scale"] = r.cfg.cluster_scale;
  j["cluster"] = r.cluster;
  j["jobs"] = m.jobs;
  j["jct_s"] = dist_json(m.jct);
  j["queue_s"] = dist_json(m.queue);
  Json small = Json::object(), large = Json::object();
  small["jobs"] = m.jobs_small;
  small["jct_s"] = dist_json(m.jct_small);
  small["queue_s"] = dist_json(m.queue_small);
  large["jobs"] = m.jobs_large;
  large["jct_s"] = dist_json(m.jct_large);
  large["queue_s"] = dist_json(m.queue_large);
  j["gpus_le_8"] = small;
  j["gpus_gt_8"] = large;
  j["makespan_s"] = m.makespan;
  j["gpu_utilization"] = m.utilization;
  j["preemptions"] = m.preemptions;
  j["migrations"] = m.migrations;
  j["avg_fragmented_gpus"] = m.avg_frag_gpus;
  j["avg_fgd_score_gpus"] = m.avg_fgd;
  j["avg_queue_length"] = m.avg_queue_len;
  Json src = Json::object();
  for (const auto& [k, v] : r.estimate_sources) src[k] = v;
  j["estimate_sources"] = src;
  j["hint_fallbacks"] = r.hint_fallbacks;
  const FailureMetrics& f = m.failures;
  Json fj = Json::object();
  fj["retry_policy"] = r.cfg.retry_policy;
  fj["failed_jobs"] = f.failed_jobs;
  fj["failed_attempts"] = f.failed_attempts;
  fj["retries"] = f.retries;
  fj["recovered"] = f.recovered;
  fj["abandoned"] = f.abandoned;
  fj["not_retried"] = f.not_retried;
  fj["retries_exhausted"] = f.retries_exhausted;
  fj["wasted_gpu_hours"] = f.wasted_gpu_hours;
  j["failures"] = fj;
  return j;
}

Table jobs_table(const std::vector<workload::JobSpec>& jobs, const SimulationResult& r) {
  Table t({"id", "vc", "gpus", "gpu_milli", "submit_s", "duration_s", "estimate_s", "start_s", "end_s", "jct_s",
           "queue_s", "preemptions", "migrations", "nodes", "racks", "slowdown", "outcome", "retries", "wasted_gpu_s"});
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    const auto& x = r.jobs[i];
    t.add_row({j.id, j.vc, int64_t{j.num_gpus}, int64_t{j.gpu_milli}, r.submit[i], j.duration, r.estimate[i],
               x.first_start, x.end, x.end - r.submit[i], x.queue_delay, int64_t{x.preemptions}, int64_t{x.migrations},
               int64_t{x.nodes}, int64_t{x.racks}, static_cast<double>(x.slowdown), std::string(to_string(x.outcome)),
               int64_t{x.retries}, x.wasted_gpu_s});
  }
  return t;
}

Table timeseries_table(const SimulationResult& r) {
  Table t({"time_s", "utilization", "used_gpus", "pending", "running", "fragmented_gpus", "fgd_score_gpus"});
  for (const auto& s : r.samples)
    t.add_row({s.time, s.util, s.used_gpus, s.pending, s.running, s.frag_gpus, s.fgd});
  return t;
}

Table by_vc_table(const SimulationResult& r) {
  Table t({"vc", "jobs", "avg_jct_s", "p99_jct_s", "avg_queue_s", "p99_queue_s"});
  std::vector<std::vector<double>> jct(r.vc_names.size()), q(r.vc_names.size());
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    jct[r.job_vc[i]].push_back(jct_of(r, i));
    q[r.job_vc[i]].push_back(r.jobs[i].queue_delay);
  }
  for (size_t v = 0; v < r.vc_names.size(); ++v) {
    Dist a = distribution(jct[v]), b = distribution(q[v]);
    t.add_row({r.vc_names[v].empty() ? std::string("(none)") : r.vc_names[v], static_cast<int64_t>(jct[v].size()), a.avg,
               a.p99, b.avg, b.p99});
  }
  return t;
}

Table summary_table(const std::vector<SimulationResult>& runs) {
  Table t({"policy", "placer", "estimator", "load", "scale", "jobs", "avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s",
           "p99.9_jct_s", "avg_queue_s", "p99_queue_s", "avg_jct_le8_s", "avg_jct_gt8_s", "makespan_s", "utilization",
           "avg_frag_gpus", "avg_fgd_gpus", "preemptions", "migrations", "hint_fallbacks", "retry_policy", "failed_jobs",
           "retries", "recovered", "abandoned", "wasted_gpu_h"});
  t.set_precision(1);
  for (const auto& r : runs) {
    Metrics m = compute_metrics(r);
    const FailureMetrics& f = m.failures;
    t.add_row({r.cfg.policy, r.cfg.placer, r.cfg.estimator, r.cfg.load_factor, r.cfg.cluster_scale, m.jobs, m.jct.avg,
               m.jct.p50, m.jct.p95, m.jct.p99, m.jct.p999, m.queue.avg, m.queue.p99, m.jct_small.avg, m.jct_large.avg,
               m.makespan, m.utilization, m.avg_frag_gpus, m.avg_fgd, m.preemptions, m.migrations, r.hint_fallbacks,
               r.cfg.retry_policy, f.failed_jobs, f.retries, f.recovered, f.abandoned, f.wasted_gpu_hours});
  }
  return t;
}

std::string jct_cdf_svg(const std::vector<SimulationResult>& runs) {
  std::vector<ChartSeries> series;
  for (const auto& r : runs) {
    ChartSeries s;
    s.name = r.cfg.label();
    std::vector<double> v;
    for (size_t i = 0; i < r.jobs.size(); ++i) v.push_back(std::max(1.0, jct_of(r, i)));
    std::sort(v.begin(), v.end());
    for (size_t i = 0; i < v.size(); ++i) {
      s.x.push_back(v[i]);
      s.y.push_back(static_cast<double>(i + 1) / static_cast<double>(v.size()));
    }
    series.push_back(std::move(s));
  }
  ChartOptions o;
  o.title = "JCT CDF";
  o.x_label = "job completion time (s)";
  o.y_label = "fraction of jobs";
  o.log_x = true;
  o.fixed_y_max = true;
  o.y_max = 1;
  return line_chart_svg(series, o);
}

std::string timeseries_svg(const std::vector<SimulationResult>& runs, const std::string& what) {
  std::vector<ChartSeries> series;
  for (const auto& r : runs) {
    ChartSeries s;
    s.name = r.cfg.label();
    for (const auto& x : r.samples) {
      s.x.push_back(x.time / 3600.0);
      s.y.push_back(what == "util" ? x.util : what == "queue" ? static_cast<double>(x.pending) : x.fgd > 0 ? x.fgd : x.frag_gpus);
    }
    series.push_back(std::move(s));
  }
  ChartOptions o;
  o.x_label = "time (hours)";
  if (what == "util") {
    o.title = "GPU utilization over time";
    o.y_label = "allocated GPU share";
    o.fixed_y_max = true;
    o.y_max = 1;
  } else if (what == "queue") {
    o.title = "Queue length over time";
    o.y_label = "pending jobs";
  } else {
    o.title = "Fragmentation over time";
    o.y_label = "stranded GPUs (FGD score for fractional)";
  }
  return line_chart_svg(series, o);
}

}  // namespace mlsys::sim
