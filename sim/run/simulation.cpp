#include "sim/run/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "sched/workload/comm_profile.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "sim/estimators/estimator.hpp"
#include "core/util/fs.hpp"

namespace mlsys::sim {
namespace {

std::string shortest(double v) { return format_number(v); }

}  // namespace

sched::JobInfo demand_of(const workload::JobSpec& j, const ClusterSpec& spec) {
  sched::JobInfo info;
  info.num_gpus = j.num_gpus;
  info.gpu_milli = j.num_gpus > 0 ? std::clamp(j.gpu_milli, 1, 1000) : 1000;
  info.cpu_milli = j.cpu_milli;
  info.memory_mib = j.memory_mib;
  info.gpu_type = -1;
  if (!j.gpu_type.empty()) {
    auto it = std::find(spec.gpu_types.begin(), spec.gpu_types.end(), j.gpu_type);
    if (it != spec.gpu_types.end()) info.gpu_type = static_cast<int>(it - spec.gpu_types.begin());
  }
  return info;
}

std::vector<sched::DemandClass> demand_mix(const std::vector<EngineJob>& jobs, size_t max_classes) {
  // Keyed by (GPUs, share, CPU, GPU type) as FGD's typical pods; memory rarely binds and is left out.
  std::map<std::tuple<int, int, int64_t, int>, double> mix;
  for (const auto& e : jobs) mix[{e.info.num_gpus, e.info.gpu_milli, e.info.cpu_milli, e.info.gpu_type}] += 1;
  std::vector<sched::DemandClass> workload;
  for (const auto& [k, w] : mix) {
    sched::DemandClass d{std::get<0>(k), std::get<1>(k), w};
    d.cpu_milli = std::get<2>(k);
    d.gpu_type = std::get<3>(k);
    workload.push_back(d);
  }
  std::stable_sort(workload.begin(), workload.end(), [](const auto& a, const auto& b) { return a.weight > b.weight; });
  if (workload.size() > max_classes) workload.resize(max_classes);
  return workload;
}

void set_comm_demand(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, std::vector<EngineJob>& all) {
  if (o.comm_profiles != "builtin") require_input(o.comm_profiles, "sim.comm_profiles", InputKind::File, "or builtin");
  const workload::CommProfiles profiles(o.comm_profiles);
  std::unordered_map<std::string_view, double> params;  // by job name: traces repeat a few
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    if (j.num_gpus < 2 || !(j.duration > 0)) continue;
    auto it = params.find(j.name);
    if (it == params.end()) it = params.emplace(j.name, profiles.params_m(j.name)).first;
    const double bytes = workload::allreduce_bytes(it->second, j.num_gpus);
    // Iterations per second at the trace's speed: its step count over its duration when known.
    const double rate = j.total_steps > 0 ? j.total_steps / j.duration : 1 / o.comm_iteration_s;
    all[i].comm_gbps = bytes * rate * 8 / 1e9;
  }
}

std::string RunConfig::label() const {
  std::string s = policy + "/" + placer + "/" + estimator;
  if (load_factor != 1) s += "/load=" + shortest(load_factor);
  if (cluster_scale != 1) s += "/scale=" + shortest(cluster_scale);
  if (retry_policy != "none") s += "/retry=" + retry_policy;
  return s;
}

RunConfig base_config(const SimOptions& o) {
  return RunConfig{o.engine.policy, o.engine.placer, o.estimator, o.load_factor, o.cluster.scale, o.retry.policy};
}

namespace {

// VCs and users as dense indices in first-seen order (hashed views: a million jobs name a few
// hundred of them).
struct JobIndex {
  std::unordered_map<std::string_view, int> vc_of, user_of;
  std::vector<int32_t> job_user;
};

JobIndex index_vcs_and_users(const std::vector<workload::JobSpec>& jobs, SimulationResult& r) {
  JobIndex x;
  x.job_user.resize(jobs.size());
  r.job_vc.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    auto [v, new_vc] = x.vc_of.try_emplace(j.vc, static_cast<int>(r.vc_names.size()));
    if (new_vc) r.vc_names.push_back(j.vc);
    r.job_vc.push_back(v->second);
    x.job_user[i] = x.user_of.try_emplace(j.user, static_cast<int>(x.user_of.size())).first->second;
  }
  return x;
}

// Duration estimates on the trace's own times, from the configured estimator.
void estimate_durations(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const RunConfig& rc,
                        SimulationResult& r) {
  EstimatorOptions eo;
  eo.hints_file = o.hints_file;
  eo.default_s = o.default_estimate_s;
  Estimates est = estimator_registry().create(rc.estimator)->estimate(jobs, eo);
  r.estimate = std::move(est.value);
  r.estimate_sources = est.sources;
  r.hint_fallbacks = est.fallbacks;
  // A fallback is a result that does not come from the input the user named: say so once.
  if (est.fallbacks > 0)
    log::warn("{} of {} jobs are missing from the hints file {}: their estimates come from the helios "
              "estimator (summary.json: hint_fallbacks)",
              est.fallbacks, jobs.size(), o.hints_file);
}

// The engine's view of every job (demand, VC, user, scaled submit time, estimate); also fills
// the per-job columns of the result. `fractional` says whether any job shares a GPU.
std::vector<EngineJob> engine_jobs(const std::vector<workload::JobSpec>& jobs, const ClusterSpec& spec,
                                   const RunConfig& rc, const JobIndex& index, SimulationResult& r,
                                   bool& fractional) {
  const size_t n = jobs.size();
  r.job_gpus.resize(n);
  r.submit.resize(n);
  std::vector<EngineJob> all(n);
  fractional = false;
  for (size_t i = 0; i < n; ++i) {
    const auto& j = jobs[i];
    if (i > 0 && j.submit_time < jobs[i - 1].submit_time) throw Error("trace jobs must be sorted by submit time");
    auto& e = all[i];
    e.info = demand_of(j, spec);
    e.info.id = static_cast<sched::JobId>(i);
    e.info.vc = r.job_vc[i];
    e.info.user = index.job_user[i];
    e.info.submit = j.submit_time / rc.load_factor;
    e.info.estimate = r.estimate[i];
    e.duration = j.duration;
    r.job_gpus[i] = j.num_gpus;
    r.submit[i] = e.info.submit;
    fractional = fractional || e.info.gpu_milli < 1000;
  }
  return all;
}

// Refuses a sample interval whose series cannot fit sim.max_samples before anything runs: the
// run lasts at least until the last submission, so that span alone gives a lower bound.
void check_series_size(const std::vector<EngineJob>& all, const EngineOptions& eopt) {
  if (eopt.sample_interval <= 0 || all.empty()) return;
  const double span = all.back().info.submit - eopt.sample_origin;
  const double at_least = std::floor(span / eopt.sample_interval);
  if (at_least <= static_cast<double>(eopt.max_samples)) return;
  throw ConfigError(fmt::format("sim.sample_interval_s = {} s gives at least {:.4g} time-series samples over the "
                                "trace's {:.0f} s of submissions, more than sim.max_samples = {}; use "
                                "sim.sample_interval_s >= {:.4g} or raise sim.max_samples",
                                eopt.sample_interval, at_least, span, eopt.max_samples,
                                span / static_cast<double>(eopt.max_samples)));
}

// The engine's tunables (sim.*) for this configuration; applies the failure model to `all`.
EngineOptions engine_options(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const RunConfig& rc,
                             const ClusterSpec& spec, uint64_t seed, bool fractional, std::vector<EngineJob>& all) {
  EngineOptions eopt = o.engine;
  eopt.policy = rc.policy;
  eopt.placer = rc.placer;
  eopt.seed = seed;
  RetryOptions retry = o.retry;  // failed jobs and retries (sim.retry.*)
  retry.policy = rc.retry_policy;
  apply_failure_model(jobs, retry, o.hints_file, all, eopt);
  eopt.links = spec.links;
  if (eopt.slowdown && eopt.slowdown_model == "links") set_comm_demand(jobs, o, all);
  eopt.borrowing = spec.borrowing;
  eopt.fgd_samples = fractional;
  eopt.has_sample_origin = !all.empty();
  eopt.sample_origin = all.empty() ? 0 : all[0].info.submit;
  check_series_size(all, eopt);
  return eopt;
}

// Adds the samples and counters of one engine run (its job records are placed by the caller).
void merge_engine_result(const EngineResult& er, SimulationResult& r) {
  if (r.samples.size() < er.samples.size()) r.samples.resize(er.samples.size());
  for (size_t k = 0; k < er.samples.size(); ++k) {
    auto& s = r.samples[k];
    const auto& x = er.samples[k];
    s.time = x.time;
    s.util += x.util * er.total_gpus;  // normalised by the caller
    s.used_gpus += x.used_gpus;
    s.pending += x.pending;
    s.running += x.running;
    s.frag_gpus += x.frag_gpus;
    s.fgd += x.fgd;
  }
  r.preemptions += er.preemptions;
  r.migrations += er.migrations;
  r.starts += er.starts;
  r.events += er.events;
  r.gpu_seconds += er.gpu_seconds;
}

// Hard-partitioned clusters: one engine per VC over its own nodes, jobs renumbered within it.
void run_per_vc(const ClusterSpec& spec, const JobIndex& index, const std::vector<EngineJob>& all,
                const EngineOptions& eopt, const std::vector<sched::DemandClass>& workload,
                const std::function<void(int64_t)>& progress, SimulationResult& r) {
  const size_t n = all.size();
  r.jobs.resize(n);
  size_t jobs_done = 0;
  for (const auto& vc : spec.vcs) {
    auto it = index.vc_of.find(vc.name);
    if (it == index.vc_of.end()) continue;
    std::vector<size_t> global;
    std::vector<EngineJob> part;
    for (size_t i = 0; i < n; ++i)
      if (all[i].info.vc == it->second) {
        global.push_back(i);
        part.push_back(all[i]);
        part.back().info.id = static_cast<sched::JobId>(part.size() - 1);
        part.back().info.vc = 0;
      }
    if (part.empty()) continue;
    try {
      const auto done_before = static_cast<int64_t>(jobs_done);
      EngineProgress on_progress;
      if (progress) on_progress = [&](int64_t k) { progress(done_before + k); };
      EngineResult er = run_engine(partition_state(spec, vc), part, {-1}, eopt, workload, on_progress);
      for (size_t k = 0; k < global.size(); ++k) r.jobs[global[k]] = er.jobs[k];
      merge_engine_result(er, r);
      jobs_done += part.size();
    } catch (const InputError& e) {
      throw InputError("VC " + vc.name + ": " + e.what());
    }
  }
}

// A shared cluster: one engine over all nodes, VC quotas enforced by the scheduler.
void run_shared(const ClusterSpec& spec, const JobIndex& index, const std::vector<EngineJob>& all,
                const EngineOptions& eopt, const std::vector<sched::DemandClass>& workload,
                const std::function<void(int64_t)>& progress, SimulationResult& r) {
  std::vector<int> quota(r.vc_names.size(), -1);
  for (const auto& vc : spec.vcs) {
    auto it = index.vc_of.find(vc.name);
    if (it != index.vc_of.end()) quota[it->second] = vc.quota_gpus;
  }
  EngineResult er = run_engine(whole_state(spec), all, quota, eopt, workload, progress);
  r.jobs = std::move(er.jobs);  // one engine: its records are the trace's, in order
  merge_engine_result(er, r);
}

}  // namespace

SimulationResult simulate(const std::vector<workload::JobSpec>& jobs, const SimOptions& o, const RunConfig& rc, uint64_t seed,
                          const std::function<void(int64_t)>& progress) {
  SimulationResult r;
  r.cfg = rc;
  const JobIndex index = index_vcs_and_users(jobs, r);
  ClusterOptions co = o.cluster;
  co.scale = rc.cluster_scale;
  const ClusterSpec spec = build_cluster(co, r.vc_names);
  r.cluster = spec.describe();
  r.total_gpus = spec.total_gpus();
  estimate_durations(jobs, o, rc, r);
  bool fractional = false;
  std::vector<EngineJob> all = engine_jobs(jobs, spec, rc, index, r, fractional);
  const std::vector<sched::DemandClass> workload = demand_mix(all);
  const EngineOptions eopt = engine_options(jobs, o, rc, spec, seed, fractional, all);
  if (spec.hard_partition)
    run_per_vc(spec, index, all, eopt, workload, progress, r);
  else
    run_shared(spec, index, all, eopt, workload, progress, r);
  for (auto& s : r.samples) s.util = r.total_gpus > 0 ? s.util / r.total_gpus : 0;
  const double first = jobs.empty() ? 0 : r.submit[0];
  double last = first;
  for (const auto& j : r.jobs) last = std::max(last, j.end);
  r.makespan = last - first;
  return r;
}

}  // namespace mlsys::sim
