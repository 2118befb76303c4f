#include "sim/helios/helios_run.hpp"

#include <chrono>
#include <cmath>
#include <exception>

#include <fmt/format.h>

#include "core/runtime/command.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/table.hpp"
#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/thread_pool.hpp"
#include "sim/engine/engine.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {
namespace helios {
namespace {

// One task per policy x VC on up to `threads` threads (core parallel_for), results in that order.
// Every task runs; the first failure (in task order) is reported as an input error.
template <class F>
std::vector<VcResult> parallel(const std::map<std::string, VcNodes>& vcs, const std::vector<std::string>& policies,
                               int threads, F&& one) {
  std::vector<std::pair<std::string, std::string>> tasks;
  for (const auto& p : policies)
    for (const auto& [vc, cfg] : vcs) tasks.emplace_back(p, vc);
  std::vector<VcResult> out(tasks.size());
  ParallelOptions po;
  po.threads = threads;
  po.collect_errors = true;
  auto errors = parallel_for(tasks.size(), po, [&](size_t i) { out[i] = one(tasks[i].first, tasks[i].second); });
  for (const auto& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      throw InputError(x.what());
    }
  }
  return out;
}

std::vector<int> of_vc(const std::vector<Job>& jobs, const std::string& vc) {
  std::vector<int> idx;
  for (int i = 0; i < static_cast<int>(jobs.size()); ++i)
    if (jobs[i].vc == vc) idx.push_back(i);
  return idx;
}

}  // namespace

std::vector<VcResult> run_all(const std::vector<Job>& jobs, const std::map<std::string, VcNodes>& vcs,
                              const std::vector<std::string>& policies, int threads) {
  return parallel(vcs, policies, threads, [&](const std::string& p, const std::string& vc) {
    const auto& cfg = vcs.at(vc);
    return simulate_vc(jobs, of_vc(jobs, vc), vc, cfg.nodes, cfg.gpus_per_node, p);
  });
}

std::vector<VcResult> run_event_driven(const std::vector<Job>& jobs, const std::map<std::string, VcNodes>& vcs,
                                       const std::vector<std::string>& policies, int threads) {
  return parallel(vcs, policies, threads, [&](const std::string& p, const std::string& vc) {
    const auto& cfg = vcs.at(vc);
    auto idx = of_vc(jobs, vc);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return jobs[a].submit < jobs[b].submit; });
    std::vector<EngineJob> ej(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) {
      const Job& j = jobs[idx[k]];
      auto& e = ej[k];
      e.info.id = static_cast<sched::JobId>(k);
      e.info.num_gpus = j.gpus;
      e.info.submit = static_cast<double>(j.submit);
      e.info.estimate = p == "qssf" ? static_cast<double>(j.priority_p) : static_cast<double>(j.duration);
      e.duration = static_cast<double>(j.duration);
    }
    std::vector<sched::NodeSpec> nodes(static_cast<size_t>(cfg.nodes));
    for (int n = 0; n < cfg.nodes; ++n) {
      nodes[n].name = vc + "-" + std::to_string(n);
      nodes[n].gpus = cfg.gpus_per_node;
    }
    EngineOptions eo;
    eo.policy = p;
    eo.placer = "consolidate";
    eo.sample_interval = 0;
    EngineResult er = run_engine(sched::ClusterState(nodes, {"gpu"}), ej, {-1}, eo);
    VcResult r;
    r.vc = vc;
    r.policy = p;
    r.jobs = static_cast<int64_t>(idx.size());
    r.job_index = idx;
    for (size_t k = 0; k < idx.size(); ++k) {
      const auto& rec = er.jobs[k];
      JobResult jr;
      jr.start = static_cast<int64_t>(std::llround(rec.first_start));
      jr.end = static_cast<int64_t>(std::llround(rec.end));
      jr.queue = static_cast<int64_t>(std::llround(rec.queue_delay));
      jr.jct = jr.end - jobs[idx[k]].submit;
      jr.preemptions = rec.preemptions;
      r.sum_jct += jr.jct;
      r.sum_queue += jr.queue;
      r.makespan = std::max(r.makespan, jr.end);
      r.results.push_back(jr);
    }
    r.preemptions = er.preemptions;
    return r;
  });
}

}  // namespace helios

namespace {

Table results_table(const std::vector<helios::VcResult>& rs) {
  Table t({"vc", "policy", "jobs", "avg_jct_s", "avg_queue_s", "sum_jct_s", "sum_queue_s", "makespan_s", "preemptions"});
  t.set_precision(2);
  for (const auto& r : rs) {
    double n = r.jobs > 0 ? static_cast<double>(r.jobs) : 1;
    t.add_row({r.vc, r.policy, r.jobs, std::round(r.sum_jct / n * 100) / 100, std::round(r.sum_queue / n * 100) / 100,
               r.sum_jct, r.sum_queue, r.makespan, r.preemptions});
  }
  return t;
}

// perjob/<policy>.csv, one row per job: streamed (a Table of 13 variant cells per row cost more
// than the simulation on 100k jobs); the bytes are those Table::to_csv wrote.
void write_perjob_csv(RunContext& ctx, const std::vector<helios::Job>& jobs, const std::vector<helios::VcResult>& rs,
                      const std::string& policy) {
  if (!ctx.primary()) return;
  const std::string relative = "perjob/" + policy + ".csv";
  try {
    ensure_dir(ctx.path("perjob"));
    CsvFileWriter w(ctx.path(relative));
    w.header({"user", "vc", "jobname", "gpu_num", "state", "submit_time", "duration", "start_time", "end_time",
              "ckpt_times", "queue", "jct", "priority"});
    for (const auto& r : rs) {
      if (r.policy != policy) continue;
      for (size_t k = 0; k < r.job_index.size(); ++k) {
        const auto& j = jobs[r.job_index[k]];
        const auto& x = r.results[k];
        w.field(j.user);
        w.field(j.vc);
        w.field(j.name);
        w.integer(j.gpus);
        w.field(j.state);
        w.integer(j.submit);
        w.integer(j.duration);
        w.integer(x.start);
        w.integer(x.end);
        w.integer(x.preemptions);
        w.integer(x.queue);
        w.integer(x.jct);
        w.integer(x.priority);
        w.end_row();
      }
    }
    w.commit();
  } catch (const Error& e) {
    ctx.missing_output(relative, e.what());
  }
}

}  // namespace

void helios_mode(RunContext& ctx) {
  const auto& o = ctx.get(sim_section());
  std::string log = o.helios_cluster_log;
  if (log.empty()) {
    auto dir = data_dir();
    if (dir.empty())
      throw Error("helios mode needs sim.helios.cluster_log (a Helios-format cluster_log.csv) or MLSYS_DATA_DIR "
                  "pointing at ../shared/data (for the reference inputs in ../shared/reference/helios_gavel)");
    log = (dir / ".." / "reference" / "helios_gavel" / "cluster_log.csv").lexically_normal().string();
  }
  auto folder = std::filesystem::path(log).parent_path();
  std::string vc_cfg = o.helios_vc_config.empty() ? (folder / "vc_config.csv").string() : o.helios_vc_config;
  std::string prio = o.helios_priorities.empty() ? (folder / "qssf_priority.csv").string() : o.helios_priorities;
  auto jobs = helios::load_cluster_log(log);
  if (std::filesystem::exists(prio)) helios::load_priorities(prio, jobs);
  auto vcs = helios::load_vc_config(vc_cfg);
  // Only VCs that have jobs.
  std::map<std::string, helios::VcNodes> used;
  for (const auto& j : jobs) {
    auto it = vcs.find(j.vc);
    if (it == vcs.end()) throw InputError(log + ": job " + j.name + " belongs to VC " + j.vc + ", which " + vc_cfg + " does not list");
    used[j.vc] = it->second;
  }
  auto t0 = std::chrono::steady_clock::now();
  auto compat = helios::run_all(jobs, used, o.helios_policies, ctx.threads());
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ctx.write_table("helios_results.csv", results_table(compat));
  for (const auto& p : o.helios_policies) write_perjob_csv(ctx, jobs, compat, p);
  int64_t total = 0;
  for (const auto& r : compat) total += r.jobs;
  ctx.summary()["helios_jobs_simulated"] = total;
  ctx.say(fmt::format("Helios compatibility mode: {} VCs x {} policies, {} job-simulations in {:.3f} s ({:.0f} jobs/s)",
                      used.size(), o.helios_policies.size(), total, wall, wall > 0 ? total / wall : 0));
  Table side({"vc", "policy", "helios_avg_jct_s", "event_avg_jct_s", "helios_avg_queue_s", "event_avg_queue_s",
              "helios_preemptions", "event_preemptions"});
  side.set_precision(2);
  if (o.helios_event_driven) {
    auto ev = helios::run_event_driven(jobs, used, o.helios_policies, ctx.threads());
    ctx.write_table("event_driven_results.csv", results_table(ev));
    for (size_t i = 0; i < compat.size(); ++i) {
      const auto& a = compat[i];
      const auto& b = ev[i];
      double n = static_cast<double>(std::max<int64_t>(1, a.jobs));
      side.add_row({a.vc, a.policy, a.sum_jct / n, b.sum_jct / n, a.sum_queue / n, b.sum_queue / n, a.preemptions, b.preemptions});
    }
    ctx.write_table("helios_vs_event.csv", side);
    ctx.say(side.to_text());
  } else {
    ctx.say(results_table(compat).to_text());
  }
}

const bool registered_mode = add_command_mode(
    "simulate", {"helios", "Helios compatibility mode: the Helios simulator's semantics on Philly-style VC traces", helios_mode});

}  // namespace mlsys::sim
