#include "sched/workload/traces/trace_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/util/stats.hpp"
#include "core/util/svg_chart.hpp"

namespace mlsys::workload {

Quantiles quantiles(std::vector<double> v) {
  Quantiles q;
  if (v.empty()) return q;
  std::sort(v.begin(), v.end());
  auto at = [&](double p) { return quantile_sorted(v, p); };
  double sum = 0;
  for (double x : v) sum += x;
  q.mean = sum / static_cast<double>(v.size());
  q.min = v.front();
  q.p10 = at(0.10);
  q.p25 = at(0.25);
  q.p50 = at(0.50);
  q.p75 = at(0.75);
  q.p90 = at(0.90);
  q.p95 = at(0.95);
  q.p99 = at(0.99);
  q.max = v.back();
  return q;
}

namespace {

double gpu_hours(const JobSpec& j) { return j.num_gpus * (j.gpu_milli / 1000.0) * j.duration / 3600.0; }

size_t bucket_of(int g) {
  if (g <= 2) return static_cast<size_t>(std::max(g, 0));
  if (g <= 4) return 3;
  if (g <= 8) return 4;
  if (g <= 16) return 5;
  if (g <= 32) return 6;
  if (g <= 64) return 7;
  return 8;
}

std::vector<TraceStats::Group> groups(const std::vector<JobSpec>& jobs, bool by_vc) {
  struct Acc {
    int64_t jobs = 0;
    double gh = 0, gpus = 0;
    std::vector<double> dur;
  };
  std::map<std::string, Acc> acc;
  for (const auto& j : jobs) {
    Acc& a = acc[by_vc ? (j.vc.empty() ? "(default)" : j.vc) : std::string(to_string(j.state))];
    ++a.jobs;
    a.gh += gpu_hours(j);
    a.gpus += j.num_gpus;
    a.dur.push_back(j.duration);
  }
  std::vector<TraceStats::Group> out;
  for (auto& [k, a] : acc)
    out.push_back({k, a.jobs, a.gh, a.gpus / static_cast<double>(a.jobs), quantiles(std::move(a.dur)).p50});
  return out;
}

void add_quantile_row(Table& t, const std::string& name, const Quantiles& q) {
  t.add_row({name, q.mean, q.min, q.p10, q.p25, q.p50, q.p75, q.p90, q.p95, q.p99, q.max});
}

Json quantiles_json(const Quantiles& q) {
  Json j = Json::object();
  j["mean"] = q.mean;
  j["min"] = q.min;
  j["p10"] = q.p10;
  j["p25"] = q.p25;
  j["p50"] = q.p50;
  j["p75"] = q.p75;
  j["p90"] = q.p90;
  j["p95"] = q.p95;
  j["p99"] = q.p99;
  j["max"] = q.max;
  return j;
}

}  // namespace

TraceStats compute_trace_stats(const std::vector<JobSpec>& jobs) {
  TraceStats s;
  static const char* kLabels[] = {"0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64"};
  for (const char* l : kLabels) s.demand.push_back({l, 0, 0});
  s.jobs = static_cast<int64_t>(jobs.size());
  if (jobs.empty()) return s;
  std::vector<double> dur, gpus;
  dur.reserve(jobs.size());
  gpus.reserve(jobs.size());
  s.first_submit_s = s.last_submit_s = jobs.front().submit_time;
  for (const auto& j : jobs) {
    double gh = gpu_hours(j);
    s.gpu_hours += gh;
    s.gpu_jobs += j.num_gpus > 0;
    s.fractional_jobs += j.num_gpus > 0 && j.gpu_milli < 1000;
    s.first_submit_s = std::min(s.first_submit_s, j.submit_time);
    s.last_submit_s = std::max(s.last_submit_s, j.submit_time);
    auto& b = s.demand[bucket_of(j.num_gpus)];
    ++b.jobs;
    b.gpu_hours += gh;
    dur.push_back(j.duration);
    gpus.push_back(j.num_gpus);
    const double d = std::min(std::max(j.duration, 1.0), 1e15);
    const auto bin = static_cast<size_t>(std::floor(std::log10(d) * 4));
    if (s.duration_bins.size() <= bin) s.duration_bins.resize(bin + 1, 0);
    ++s.duration_bins[bin];
  }
  s.duration_s = quantiles(std::move(dur));
  s.num_gpus = quantiles(std::move(gpus));
  double first_hour = std::floor(s.first_submit_s / 3600);
  // A span beyond ~114 years of hours is a unit mistake in the trace; don't allocate for it.
  const double span_hours = std::floor(s.last_submit_s / 3600) - first_hour + 1;
  size_t hours = span_hours <= 1e6 ? static_cast<size_t>(span_hours) : 0;
  s.arrivals_by_hour.assign(hours, 0);
  if (hours == 0) s.arrivals_by_hour.clear();
  if (hours > 0)
    for (const auto& j : jobs) ++s.arrivals_by_hour[static_cast<size_t>(std::floor(j.submit_time / 3600) - first_hour)];
  std::vector<double> hourly(s.arrivals_by_hour.begin(), s.arrivals_by_hour.end());
  s.hourly_arrivals = quantiles(std::move(hourly));
  double span_h = std::max(1.0, (s.last_submit_s - s.first_submit_s) / 3600);
  s.arrivals_per_hour = static_cast<double>(s.jobs) / span_h;
  s.by_vc = groups(jobs, true);
  s.by_state = groups(jobs, false);
  return s;
}

std::vector<std::pair<std::string, Table>> TraceStats::to_tables() const {
  std::vector<std::pair<std::string, Table>> out;
  Table overview({"metric", "value"});
  overview.add_row({std::string("jobs"), jobs});
  overview.add_row({std::string("gpu_jobs"), gpu_jobs});
  overview.add_row({std::string("fractional_gpu_jobs"), fractional_jobs});
  overview.add_row({std::string("gpu_hours"), gpu_hours});
  overview.add_row({std::string("first_submit_s"), first_submit_s});
  overview.add_row({std::string("last_submit_s"), last_submit_s});
  overview.add_row({std::string("arrivals_per_hour"), arrivals_per_hour});
  overview.add_row({std::string("virtual_clusters"), static_cast<int64_t>(by_vc.size())});
  out.emplace_back("overview", std::move(overview));

  Table demand_t({"num_gpus", "jobs", "job_share", "gpu_hours", "gpu_hour_share"});
  for (const auto& b : demand)
    demand_t.add_row({b.label, b.jobs, jobs ? static_cast<double>(b.jobs) / static_cast<double>(jobs) : 0.0,
                      b.gpu_hours, gpu_hours > 0 ? b.gpu_hours / gpu_hours : 0.0});
  out.emplace_back("demand", std::move(demand_t));

  Table dist({"quantity", "mean", "min", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "max"});
  add_quantile_row(dist, "duration_s", duration_s);
  add_quantile_row(dist, "num_gpus", num_gpus);
  add_quantile_row(dist, "arrivals_per_hour", hourly_arrivals);
  out.emplace_back("distributions", std::move(dist));

  Table arrivals({"hour", "jobs"});
  for (size_t h = 0; h < arrivals_by_hour.size(); ++h)
    arrivals.add_row({static_cast<int64_t>(h), arrivals_by_hour[h]});
  out.emplace_back("arrivals_per_hour", std::move(arrivals));

  for (int pass = 0; pass < 2; ++pass) {
    Table g({pass == 0 ? "vc" : "state", "jobs", "gpu_hours", "mean_gpus", "median_duration_s"});
    for (const auto& x : pass == 0 ? by_vc : by_state)
      g.add_row({x.key, x.jobs, x.gpu_hours, x.mean_gpus, x.median_duration_s});
    out.emplace_back(pass == 0 ? "by_vc" : "by_state", std::move(g));
  }
  return out;
}

Json TraceStats::to_json() const {
  Json j = Json::object();
  j["jobs"] = jobs;
  j["gpu_jobs"] = gpu_jobs;
  j["fractional_gpu_jobs"] = fractional_jobs;
  j["gpu_hours"] = gpu_hours;
  j["first_submit_s"] = first_submit_s;
  j["last_submit_s"] = last_submit_s;
  j["arrivals_per_hour"] = arrivals_per_hour;
  j["duration_s"] = quantiles_json(duration_s);
  j["num_gpus"] = quantiles_json(num_gpus);
  j["hourly_arrivals"] = quantiles_json(hourly_arrivals);
  return j;
}

std::vector<std::pair<std::string, std::string>> TraceStats::to_svgs(FigureSize size) const {
  std::vector<std::pair<std::string, std::string>> out;
  {
    std::vector<std::string> classes;
    BarStack jobs{"jobs", {}};
    for (const auto& d : demand) {
      classes.push_back(d.label);
      jobs.values.push_back(static_cast<double>(d.jobs));
    }
    ChartOptions o;
    o.size = size;
    o.title = "GPU demand";
    o.x_label = "GPUs requested";
    o.y_label = "jobs";
    o.bar_values = true;
    out.emplace_back("demand.svg", stacked_bar_svg(classes, {jobs}, o));
  }
  {
    ChartSeries h;  // histogram outline over the bins' edges
    h.name = "jobs per bin (4 per decade)";
    for (size_t k = 0; k < duration_bins.size(); ++k) {
      const double lo = std::pow(10.0, static_cast<double>(k) / 4), hi = std::pow(10.0, static_cast<double>(k + 1) / 4);
      const auto n = static_cast<double>(duration_bins[k]);
      if (k == 0) {
        h.x.push_back(lo);
        h.y.push_back(0);
      }
      h.x.insert(h.x.end(), {lo, hi});
      h.y.insert(h.y.end(), {n, n});
    }
    if (!h.x.empty()) {
      h.x.push_back(h.x.back());
      h.y.push_back(0);
    }
    ChartOptions o;
    o.size = size;
    o.title = "Job durations";
    o.x_label = "duration (s)";
    o.y_label = "jobs";
    o.log_x = true;
    out.emplace_back("durations.svg", line_chart_svg({h}, o));
  }
  {
    ChartSeries a;
    a.name = "jobs submitted";
    for (size_t hr = 0; hr < arrivals_by_hour.size(); ++hr) {
      a.x.push_back(static_cast<double>(hr));
      a.y.push_back(static_cast<double>(arrivals_by_hour[hr]));
    }
    ChartOptions o;
    o.size = size;
    o.title = "Arrivals per hour";
    o.x_label = "hours since the first submission";
    o.y_label = "jobs";
    out.emplace_back("arrivals.svg", line_chart_svg({a}, o));
  }
  {
    // Largest VCs first; beyond 19 the rest are one bar, so the legend stays readable.
    std::vector<const Group*> vcs;
    for (const auto& g : by_vc) vcs.push_back(&g);
    std::stable_sort(vcs.begin(), vcs.end(), [](const Group* a, const Group* b) { return a->gpu_hours > b->gpu_hours; });
    std::vector<std::string> names;
    BarStack hours{"GPU-hours", {}};
    double rest = 0;
    size_t rest_n = 0;
    for (size_t i = 0; i < vcs.size(); ++i) {
      if (i < 19 || vcs.size() == 20) {
        names.push_back(vcs[i]->key.empty() ? std::string("(none)") : vcs[i]->key);
        hours.values.push_back(vcs[i]->gpu_hours);
      } else {
        rest += vcs[i]->gpu_hours;
        ++rest_n;
      }
    }
    if (rest_n > 0) {
      names.push_back(std::to_string(rest_n) + " other VCs");
      hours.values.push_back(rest);
    }
    ChartOptions o;
    o.size = size;
    o.title = "GPU-hours per VC";
    o.x_label = "VC (largest first)";
    o.y_label = "GPU-hours";
    o.bar_values = true;
    out.emplace_back("vc_gpu_hours.svg", stacked_bar_svg(names, {hours}, o));
  }
  return out;
}

}  // namespace mlsys::workload
