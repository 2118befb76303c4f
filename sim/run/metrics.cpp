#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "core/io/csv.hpp"
#include "core/util/stats.hpp"
#include "core/util/svg_chart.hpp"
#include "sim/run/simulation.hpp"

namespace mlsys::sim {

void sort_values(std::vector<double>& v) {
  // LSD radix sort on the IEEE bit patterns (order-preserving map: flip all bits of negatives,
  // the sign bit of the rest): the ascending order std::sort gives, in linear time; bytes that
  // are equal in every key are skipped. NaN does not occur (times are finite).
  const size_t n = v.size();
  if (n < 4096) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::vector<uint64_t> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t u;
    std::memcpy(&u, &v[i], sizeof u);
    a[i] = (u >> 63) ? ~u : u | (uint64_t{1} << 63);
  }
  std::array<std::array<size_t, 256>, 8> count{};
  for (uint64_t u : a)
    for (int d = 0; d < 8; ++d) ++count[d][(u >> (8 * d)) & 0xFF];
  for (int d = 0; d < 8; ++d) {
    auto& c = count[d];
    if (c[(a[0] >> (8 * d)) & 0xFF] == n) continue;  // this byte is the same in every key
    size_t pos = 0;
    for (auto& x : c) {
      const size_t k = x;
      x = pos;
      pos += k;
    }
    for (uint64_t u : a) b[c[(u >> (8 * d)) & 0xFF]++] = u;
    a.swap(b);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint64_t u = (a[i] >> 63) ? a[i] & ~(uint64_t{1} << 63) : ~a[i];
    std::memcpy(&v[i], &u, sizeof u);
  }
}

Dist distribution_sorted(const std::vector<double>& v) {
  Dist d;
  if (v.empty()) return d;
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

Dist distribution(std::vector<double> v) {
  sort_values(v);
  return distribution_sorted(v);
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
  jct.reserve(r.jobs.size());
  q.reserve(r.jobs.size());
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
  sort_values(jct);
  m.jct = distribution_sorted(jct);
  m.jct_sorted = std::move(jct);
  m.queue = distribution(std::move(q));
  m.jct_small = distribution(std::move(js));
  m.jct_large = distribution(std::move(jl));
  m.queue_small = distribution(std::move(qs));
  m.queue_large = distribution(std::move(ql));
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

const std::vector<std::string>& jobs_csv_columns() {
  static const std::vector<std::string> cols{
      "id",      "vc",      "gpus",       "gpu_milli",  "submit_s",    "duration_s", "estimate_s",
      "start_s", "end_s",   "jct_s",      "queue_s",    "preemptions", "migrations", "nodes",
      "racks",   "slowdown", "outcome",   "retries",    "wasted_gpu_s"};
  return cols;
}

void write_jobs_csv(const std::filesystem::path& path, const std::vector<workload::JobSpec>& jobs,
                    const SimulationResult& r, const std::function<void(size_t)>& progress) {
  CsvFileWriter w(path);
  w.header(jobs_csv_columns());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    const auto& x = r.jobs[i];
    w.field(j.id);
    w.field(j.vc);
    w.integer(j.num_gpus);
    w.integer(j.gpu_milli);
    w.number(r.submit[i]);
    w.number(j.duration);
    w.number(r.estimate[i]);
    w.number(x.first_start);
    w.number(x.end);
    w.number(x.end - r.submit[i]);
    w.number(x.queue_delay);
    w.integer(x.preemptions);
    w.integer(x.migrations);
    w.integer(x.nodes);
    w.integer(x.racks);
    w.number(static_cast<double>(x.slowdown));
    w.field(to_string(x.outcome));
    w.integer(x.retries);
    w.number(x.wasted_gpu_s);
    w.end_row();
    if (progress && (i & 0xFFFF) == 0xFFFF) progress(i + 1);
  }
  w.commit();
  if (progress) progress(jobs.size());
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
    const auto count = static_cast<int64_t>(jct[v].size());
    Dist a = distribution(std::move(jct[v])), b = distribution(std::move(q[v]));
    t.add_row({r.vc_names[v].empty() ? std::string("(none)") : r.vc_names[v], count, a.avg,
               a.p99, b.avg, b.p99});
  }
  return t;
}

Table summary_table(const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics) {
  Table t({"policy", "placer", "estimator", "load", "scale", "jobs", "avg_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s",
           "p99.9_jct_s", "avg_queue_s", "p99_queue_s", "avg_jct_le8_s", "avg_jct_gt8_s", "makespan_s", "utilization",
           "avg_frag_gpus", "avg_fgd_gpus", "preemptions", "migrations", "hint_fallbacks", "retry_policy", "failed_jobs",
           "retries", "recovered", "abandoned", "wasted_gpu_h"});
  t.set_precision(1);
  for (size_t k = 0; k < runs.size(); ++k) {
    const SimulationResult& r = runs[k];
    const Metrics& m = metrics[k];
    const FailureMetrics& f = m.failures;
    t.add_row({r.cfg.policy, r.cfg.placer, r.cfg.estimator, r.cfg.load_factor, r.cfg.cluster_scale, m.jobs, m.jct.avg,
               m.jct.p50, m.jct.p95, m.jct.p99, m.jct.p999, m.queue.avg, m.queue.p99, m.jct_small.avg, m.jct_large.avg,
               m.makespan, m.utilization, m.avg_frag_gpus, m.avg_fgd, m.preemptions, m.migrations, r.hint_fallbacks,
               r.cfg.retry_policy, f.failed_jobs, f.retries, f.recovered, f.abandoned, f.wasted_gpu_hours});
  }
  return t;
}

std::string jct_cdf_svg(const std::vector<SimulationResult>& runs, const std::vector<Metrics>& metrics, FigureSize size) {
  std::vector<ChartSeries> series;
  for (size_t k = 0; k < runs.size(); ++k) {
    ChartSeries s;
    s.name = runs[k].cfg.label();
    const std::vector<double>& v = metrics[k].jct_sorted;  // max(1, x) keeps the order
    s.x.reserve(v.size());
    s.y.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      s.x.push_back(std::max(1.0, v[i]));
      s.y.push_back(static_cast<double>(i + 1) / static_cast<double>(v.size()));
    }
    series.push_back(std::move(s));
  }
  ChartOptions o;
  o.size = size;
  o.title = "JCT CDF";
  o.x_label = "job completion time (s)";
  o.y_label = "fraction of jobs";
  o.log_x = true;
  o.fixed_y_max = true;
  o.y_max = 1;
  return line_chart_svg(series, o);
}

std::string timeseries_svg(const std::vector<SimulationResult>& runs, const std::string& what, FigureSize size) {
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
  o.size = size;
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
