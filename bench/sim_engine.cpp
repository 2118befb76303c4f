// Simulator speed: (1) non-preemptive FIFO/SJF/EASY (easy and easy_nodes) on 1M generated jobs
// over 1,000 nodes x 8 GPUs (target >= 1M jobs/s on one core), (2) preemptive 2D-LAS with 60 s
// rounds on 100k jobs over 30 simulated days (target <= 2 s), (3) the Helios compatibility mode
// and the event-driven engine on a lightly loaded 100k-job single-VC trace, against the Helios
// simulator's measured speed (1,370 jobs/s FIFO, 247 jobs/s SRTF on this kind of machine), (4) on
// the reference VC traces when MLSYS_DATA_DIR is set (Helios: ~100 jobs/s, 30 for SRTF), (5) the
// jobs of (1) with 20% failed (no retry, 3 blind retries) and with switch congestion. Memory is
// reported as bytes per job.
//
//   build-sim/bench/bench_sim_engine [--quick]
//   build-sim/bench/bench_sim_engine --helios-trace DIR   (writes part 3's trace as DIR/cluster_log.csv and
//                                                          DIR/vc_config.csv for `mlsys simulate helios`)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "core/io/csv.hpp"
#include "core/process/system.hpp"
#include "core/util/fs.hpp"
#include "core/util/random.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sim/engine/engine.hpp"
#include "sim/helios/helios_input.hpp"
#include "sim/helios/helios_sim.hpp"

using namespace mlsys;
using namespace mlsys::sim;

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// CPU time of this thread: the machine is shared, so wall time alone overstates the cost.
double cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Poisson arrivals at the rate that loads `gpus` to `load`; demand 1/2/4/8/16 GPUs; log-normal
// durations (median ~18 min, mean ~56 min).
std::vector<EngineJob> generate(size_t n, int gpus, double load, uint64_t seed, bool whole_seconds = false) {
  mlsys::Rng rng(seed);
  const int g[] = {1, 2, 4, 8, 16};
  const double cumulative[] = {60, 72, 86, 97, 100};  // percent of jobs with g[k] GPUs: 60/12/14/11/3
  auto pick = [&] {
    const double u = 100 * rng.uniform();
    int k = 0;
    while (k < 4 && u >= cumulative[k]) ++k;
    return k;
  };
  auto dur = [&] { return std::exp(7.0 + 1.5 * rng.normal()); };  // log-normal(7, 1.5)
  const double mean_gpus = (60 * 1 + 12 * 2 + 14 * 4 + 11 * 8 + 3 * 16) / 100.0;
  const double mean_dur = std::exp(7.0 + 1.5 * 1.5 / 2);
  const double rate = load * gpus / (mean_gpus * mean_dur);

  std::vector<EngineJob> jobs(n);
  double t = 0;
  for (size_t i = 0; i < n; ++i) {
    t += rng.exponential(rate);
    auto& e = jobs[i];
    e.info.id = static_cast<sched::JobId>(i);
    e.info.submit = whole_seconds ? std::floor(t) : t;
    e.info.num_gpus = g[pick()];
    const double d = dur();
    e.duration = std::max(1.0, whole_seconds ? std::round(d) : d);
    e.info.estimate = e.duration;
  }
  return jobs;
}

sched::ClusterState uniform(int nodes, int gpus) {
  std::vector<sched::NodeSpec> ns(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    ns[i].gpus = gpus;
    ns[i].rack = i / 8;
  }
  return sched::ClusterState(ns, {"v100"});
}

void engine_run(const char* what, const std::vector<EngineJob>& jobs, int nodes, const std::string& policy, double round = 60,
                int max_retries = 0, double congestion = 0) {
  EngineOptions o;
  o.policy = policy;
  o.sample_interval = 3600;
  o.policy_params.set("las_round_s", std::to_string(round));
  o.max_retries = max_retries;
  o.slowdown = congestion > 0;
  o.congestion_per_job = congestion;
  uint64_t rss0 = current_rss_bytes();
  double t0 = now_s(), c0 = cpu_s();
  auto r = run_engine(uniform(nodes, 8), jobs, {-1}, o);
  double dt = now_s() - t0, dc = cpu_s() - c0;
  uint64_t rss1 = peak_rss_bytes();
  double span_days = (jobs.back().info.submit - jobs.front().info.submit) / 86400;
  std::printf("%-22s %-5s %8zu jobs %6.2f days  wall %7.3f s %10.0f jobs/s  cpu %7.3f s %10.0f jobs/s  util %.2f  preempt %lld  (~%.0f B/job peak)\n",
              what, policy.c_str(), jobs.size(), span_days, dt, jobs.size() / dt, dc, jobs.size() / dc,
              r.gpu_seconds / (r.makespan * nodes * 8), static_cast<long long>(r.preemptions),
              rss1 > rss0 ? double(rss1 - rss0) / jobs.size() : 0.0);
}

void helios_run(const char* what, const std::vector<helios::Job>& jobs, int nodes, const std::string& policy,
                double helios_jobs_per_s) {
  std::vector<int> idx;
  for (int i = 0; i < static_cast<int>(jobs.size()); ++i) idx.push_back(i);
  double t0 = now_s(), c0 = cpu_s();
  auto r = helios::simulate_vc(jobs, idx, jobs[0].vc, nodes, 8, policy);
  double dt = now_s() - t0, dc = cpu_s() - c0;
  double rate = jobs.size() / dt;
  std::printf("%-22s %-5s %8zu jobs  wall %7.3f s %10.0f jobs/s = %.0fx Helios (%.0f jobs/s); cpu %.3f s = %.0fx  ticks evaluated %lld of %lld\n",
              what, policy.c_str(), jobs.size(), dt, rate, rate / helios_jobs_per_s, helios_jobs_per_s, dc,
              jobs.size() / dc / helios_jobs_per_s,
              static_cast<long long>(r.ticks_processed), static_cast<long long>(r.makespan));
}

// Part 3's trace: lightly loaded (0.4 of 64 nodes x 8 GPUs), whole seconds, one VC.
std::vector<EngineJob> helios100k() { return generate(100000, 512, 0.4, 3, true); }

// Part 3's trace in the Helios "Philly" input format (as ../shared/reference/helios_gavel: datetime
// submit times from 2017-10-01), so the whole `mlsys simulate helios` process can be timed on it
// (bench/sim_helios_cli.sh).
void write_helios_trace(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const int64_t origin = *workload::parse_datetime("2017-10-01 00:00:00");
  CsvFileWriter w(dir / "cluster_log.csv");
  w.header({"job_id", "user", "vc", "jobname", "gpu_num", "state", "submit_time", "duration"});
  const auto jobs = helios100k();
  for (size_t i = 0; i < jobs.size(); ++i) {
    w.integer(static_cast<int64_t>(i));
    w.field("u" + std::to_string(i % 97));
    w.field("vc");
    w.field(fmt::format("vc-{:06d}", i));
    w.integer(jobs[i].info.num_gpus);
    w.field("Pass");
    w.field(workload::format_datetime(origin + static_cast<int64_t>(jobs[i].info.submit)));
    w.integer(static_cast<int64_t>(jobs[i].duration));
    w.end_row();
  }
  w.commit();
  CsvFileWriter v(dir / "vc_config.csv");
  v.header({"vc", "node num", "gpus_per_node"});
  v.field("vc");
  v.integer(64);
  v.integer(8);
  v.end_row();
  v.commit();
  std::printf("%zu jobs written to %s\n", jobs.size(), (dir / "cluster_log.csv").c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  // --fifo: part 1's FIFO line alone, the engine-only figure bench/sim_cli.sh prints beside the
  // whole `mlsys simulate` process.
  const bool fifo_only = argc > 1 && std::strcmp(argv[1], "--fifo") == 0;
  if (argc > 2 && std::strcmp(argv[1], "--helios-trace") == 0) {
    write_helios_trace(argv[2]);
    return 0;
  }
  std::printf("== 1. non-preemptive, 1,000 nodes x 8 GPUs, load 0.8, one core ==\n");
  {
    auto jobs = generate(quick ? 100000 : 1000000, 8000, 0.8, 1);
    for (const char* p : {"fifo", "sjf", "easy", "easy_nodes"}) {
      engine_run("generated", jobs, 1000, p);
      if (fifo_only) return 0;
    }
  }
  std::printf("== 2. preemptive 2D-LAS, 60 s rounds, 100k jobs over 30 days ==\n");
  {
    auto jobs = generate(100000, 480, 0.8, 2);
    double span = jobs.back().info.submit;
    for (auto& j : jobs) j.info.submit *= 30 * 86400 / span;  // exactly 30 days
    engine_run("generated (60 nodes)", jobs, 60, "las", 60);
    engine_run("generated (60 nodes)", jobs, 60, "srtf");
  }
  std::printf("== 3. lightly loaded 100k-job single-VC trace (whole seconds), 64 nodes ==\n");
  {
    auto ej = helios100k();
    std::vector<helios::Job> hj(ej.size());
    for (size_t i = 0; i < ej.size(); ++i) {
      hj[i].vc = "vc";
      hj[i].name = "vc-" + std::to_string(i);
      hj[i].gpus = ej[i].info.num_gpus;
      hj[i].submit = static_cast<int64_t>(ej[i].info.submit);
      hj[i].duration = static_cast<int64_t>(ej[i].duration);
    }
    helios_run("helios compat mode", hj, 64, "fifo", 1370);
    helios_run("helios compat mode", hj, 64, "srtf", 247);
    engine_run("event-driven engine", ej, 64, "fifo");
    engine_run("event-driven engine", ej, 64, "srtf");
  }
  auto data = data_dir();
  if (!data.empty()) {
    std::printf("== 4. the 5 reference VC traces (../shared/reference/helios_gavel), all VCs per policy ==\n");
    auto ref = data / ".." / "reference" / "helios_gavel";
    auto jobs = helios::load_cluster_log((ref / "cluster_log.csv").string());
    helios::load_priorities((ref / "qssf_priority.csv").string(), jobs);
    auto vcs = helios::load_vc_config((ref / "vc_config.csv").string());
    for (const auto& p : helios::policies()) {
      double t0 = now_s();
      size_t n = 0;
      for (const auto& [vc, cfg] : vcs) {
        std::vector<int> idx;
        for (int i = 0; i < static_cast<int>(jobs.size()); ++i)
          if (jobs[i].vc == vc) idx.push_back(i);
        n += idx.size();
        helios::simulate_vc(jobs, idx, vc, cfg.nodes, cfg.gpus_per_node, p);
      }
      double dt = now_s() - t0, base = p == "srtf" ? 30 : 100;
      std::printf("%-34s %-6s %8zu jobs  %8.4f s  %12.0f jobs/s  = %.0fx the Helios simulator (%.0f jobs/s)\n",
                  "helios compat, 5 VC traces", p.c_str(), n, dt, n / dt, n / dt / base, base);
    }
  }
  std::printf("== 5. the jobs of 1 with failures (20%%, mixed causes) and congestion (0.1 per job), FIFO ==\n");
  {
    auto jobs = generate(quick ? 100000 : 1000000, 8000, 0.8, 1);
    engine_run("congestion 0.1", jobs, 1000, "fifo", 60, 0, 0.1);
    mlsys::Rng rng(5);
    for (auto& j : jobs)
      if (rng.below(5) == 0) {
        j.failure.fails = true;
        j.failure.cause = static_cast<FailureCause>(rng.below(4));
      }
    engine_run("20% failed, no retry", jobs, 1000, "fifo");
    engine_run("20% failed, 3 retries", jobs, 1000, "fifo", 60, 3);
  }
  return 0;
}
