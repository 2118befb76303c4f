// `mlsys coopt compare`: the whole evaluation in one run. Priors (cached), the participant phase,
// then for each seed every method's student, probed after each eval epoch with few and all labels.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "core/log/log.hpp"
#include "core/runtime/system.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "core/util/thread_pool.hpp"
#include "dataopt/app/modes.hpp"
#include "dataopt/app/setup.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/eval/probe.hpp"
#include "dataopt/eval/svg_plot.hpp"
#include "dataopt/math/projection.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"

namespace mlsys::dataopt {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Stat {
  double mean = 0, sd = 0;
};
Stat stat(const std::vector<double>& v) {
  Stat s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.sd += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(s.sd / static_cast<double>(v.size() - 1)) : 0;
  return s;
}

const char* describe(const std::string& m) {
  if (m == "raw") return "raw pixels";
  if (m == "random") return "random-init student";
  if (m == "ssl") return "self-supervised student (denoising AE)";
  if (m == "coopt") return "CoOpt aligned, MLP student";
  if (m == "coopt_noalign") return "CoOpt without alignment (T = I), MLP";
  if (m == "coopt_cnn") return "CoOpt aligned, CNN student";
  if (m == "central") return "single best prior, central (upper reference)";
  return "?";
}

}  // namespace

void compare_mode(RunContext& ctx) {
  const auto t_all = std::chrono::steady_clock::now();
  Setup s = make_setup(ctx);
  const CooptOptions& o = s.opt;
  std::vector<int64_t> epochs = o.eval_epochs;
  std::sort(epochs.begin(), epochs.end());
  epochs.erase(std::unique(epochs.begin(), epochs.end()), epochs.end());

  auto t = std::chrono::steady_clock::now();
  std::vector<PriorStatus> priors = prepare_priors(s);
  const double priors_s = seconds_since(t);
  bool root = false;
  ParticipantReport rep = participant_phase(ctx, s, &root);
  if (!root) return;  // other MPI ranks are done after the participant phase
  const double participants_s = rep.seconds;

  OptimizedDataset od = read_optimized(s.plan.dataset_dir);
  for (size_t i = 0; i < od.index.size(); ++i)
    if (od.index[i] != static_cast<int32_t>(i)) throw Error("optimized dataset rows are not in pool order");
  const auto device = s.context("coopt");
  const Tensor y = standardized(*device, od.targets);
  Tensor y_unaligned;
  if (od.targets_unaligned.defined()) y_unaligned = standardized(*device, od.targets_unaligned);
  const bool want = [&] {
    return std::find(o.methods.begin(), o.methods.end(), "coopt_noalign") != o.methods.end();
  }();
  if (want && !y_unaligned.defined()) throw ConfigError("coopt_noalign needs coopt.write_unaligned: true");

  // Upper reference: one prior embeds the whole pool centrally.
  Tensor y_central;
  std::string central_name = o.central_prior.empty() ? rep.names[static_cast<size_t>(rep.reference)] : o.central_prior;
  if (std::find(o.methods.begin(), o.methods.end(), "central") != o.methods.end()) {
    auto it = std::find(rep.names.begin(), rep.names.end(), central_name);
    if (it == rep.names.end()) throw ConfigError("coopt.eval.central_prior '" + central_name + "' is not a prior name");
    const int k = static_cast<int>(it - rep.names.begin());
    PriorBuildContext c = build_context(*device, s.plan, *s.data, k, s.digits_csv);
    c.height = od.geometry.h;
    c.width = od.geometry.w;
    Prior p = obtain_prior(s.plan, k, c);
    const Tensor w = random_projection(p.dim(), s.plan.common_dim, projection_seed(s.plan.seed, k));
    y_central = standardized(*device, project(*device, p.embed(*device, od.images, iota_rows(0, od.images.rows())), w));
  }

  ProbeData pd = probe_data(s, od.images, ctx.seed());
  // results[method][epoch index] -> per-seed values
  std::map<std::string, std::vector<std::vector<double>>> few, all;
  std::map<std::string, double> train_s;
  for (const auto& m : o.methods) {
    few[m].assign(epochs.size(), {});
    all[m].assign(epochs.size(), {});
  }
  // Every (seed, method) student is an independent job on its own context; jobs run on
  // ctx.threads() workers with one BLAS/OpenMP thread each, which uses the cores far better than
  // threading small GEMMs.
  struct Job {
    int seed_index;
    std::string method;
    std::vector<ProbePoint> points;
    double seconds = 0;
  };
  std::vector<Job> jobs;
  for (const auto& m : o.methods)  // slowest first, so the last jobs are short
    if (m == "coopt_cnn")
      for (int si = 0; si < o.seeds; ++si) jobs.push_back({si, m, {}, 0});
  for (int si = 0; si < o.seeds; ++si)
    for (const auto& m : o.methods)
      if (m != "coopt_cnn") jobs.push_back({si, m, {}, 0});
  std::vector<std::vector<int64_t>> few_rows(static_cast<size_t>(o.seeds));
  for (int si = 0; si < o.seeds; ++si)
    few_rows[static_cast<size_t>(si)] =
        labeled_subset(pd.pool_labels, pd.classes, o.labels_per_class, derive_seed(ctx.seed() + static_cast<uint64_t>(si), 0xfe3));
  // The jobs' contexts are made and released here, in job order, so summary.json lists their pools
  // in the same order every run (workers would register them in whatever order they start).
  std::vector<std::unique_ptr<DeviceContext>> job_devices;
  for (const Job& job : jobs)
    job_devices.push_back(s.context(fmt::format("coopt.{}.seed{}", job.method, ctx.seed() + static_cast<uint64_t>(job.seed_index))));
  auto run_job = [&](Job& job, DeviceContext& job_device) {
    const uint64_t seed = ctx.seed() + static_cast<uint64_t>(job.seed_index);
    ProbeData local = pd;  // shares nothing mutable with other jobs
    local.few_rows = few_rows[static_cast<size_t>(job.seed_index)];
    const std::string& m = job.method;
    if (m == "raw") {
      const ProbePoint p = probe_features(job_device, local.pool_images, local.test_images, local, 0);
      for (int64_t e : epochs) job.points.push_back({static_cast<int>(e), p.few, p.all});
    } else {
      StudentRun r;
      r.arch = m == "coopt_cnn" ? o.cnn_arch : o.mlp_arch;
      r.geometry = od.geometry;
      r.fit = student_fit(o, derive_seed(seed, 0x51));
      r.eval_epochs = epochs;
      r.init_seed = derive_seed(seed, 0x1417);
      r.objective = m == "random" ? StudentObjective::none : m == "ssl" ? StudentObjective::denoise : StudentObjective::targets;
      r.targets = m == "coopt_noalign" ? &y_unaligned : m == "central" ? &y_central : &y;
      // The participants' weights come from the alignment, so only the aligned rows use them.
      if (m == "coopt" || m == "coopt_cnn") r.weights = &od.weight;
      job.points = run_student(job_device, r, od.images, local, &job.seconds);
    }
    log::info("coopt: seed {} {:<14} epoch {} few {:.4f} all {:.4f} ({:.1f}s)", seed, m, job.points.front().epoch,
              job.points.front().few, job.points.front().all, job.seconds);
  };
  {
    OneMathThread one;
    ParallelOptions po;
    po.threads = ctx.threads();
    po.stop = [] { return RunContext::stop_requested(); };
    parallel_for(jobs.size(), po, [&](size_t i) {
      set_thread_count(1);  // this worker's OpenMP count
      run_job(jobs[i], *job_devices[i]);
      job_devices[i]->pool().release_cached();  // its statistics stay; its memory goes back now
    });
  }
  for (auto& d : job_devices) d.reset();
  if (RunContext::stop_requested()) throw Error("interrupted");
  for (const Job& job : jobs) {
    train_s[job.method] += job.seconds / o.seeds;
    for (size_t e = 0; e < epochs.size(); ++e) {
      few[job.method][e].push_back(job.points[e].few);
      all[job.method][e].push_back(job.points[e].all);
    }
  }

  Table table({"method", "epoch", "few_label_acc", "few_label_sd", "all_label_acc", "all_label_sd"});
  table.set_precision(4);
  std::vector<PlotSeries> plot_few, plot_all;
  Json results = Json::object();
  for (const auto& m : o.methods) {
    PlotSeries pf{m, {}, {}, {}}, pa{m, {}, {}, {}};
    Json jm = Json::array();
    for (size_t e = 0; e < epochs.size(); ++e) {
      const Stat f = stat(few[m][e]), a = stat(all[m][e]);
      table.add_row({m, epochs[e], f.mean, f.sd, a.mean, a.sd});
      pf.x.push_back(static_cast<double>(epochs[e]));
      pf.y.push_back(100 * f.mean);
      pf.spread.push_back(100 * f.sd);
      pa.x.push_back(static_cast<double>(epochs[e]));
      pa.y.push_back(100 * a.mean);
      pa.spread.push_back(100 * a.sd);
      jm.push_back(Json(Json::Object{{"epoch", Json(epochs[e])}, {"few", Json(f.mean)}, {"few_sd", Json(f.sd)},
                                     {"all", Json(a.mean)}, {"all_sd", Json(a.sd)}}));
    }
    results[m] = jm;
    plot_few.push_back(pf);
    plot_all.push_back(pa);
  }
  ctx.write_table("comparison.csv", table);
  const std::string lpc = std::to_string(o.labels_per_class);
  ctx.write_text("accuracy_few_labels.svg",
                 svg_line_chart("Linear probe, " + lpc + " labels/class (mean +- sd over " + std::to_string(o.seeds) + " seeds)",
                                "student epochs", "test accuracy (%)", plot_few));
  ctx.write_text("accuracy_all_labels.svg",
                 svg_line_chart("Linear probe, all pool labels", "student epochs", "test accuracy (%)", plot_all));

  // The protocol's claims, evaluated on this run.
  auto at = [&](const std::string& m, int64_t epoch, bool few_labels) -> double {
    auto it = std::find(epochs.begin(), epochs.end(), epoch);
    if (!few.count(m) || it == epochs.end()) return std::nan("");
    return stat((few_labels ? few : all)[m][static_cast<size_t>(it - epochs.begin())]).mean;
  };
  Json checks = Json::object();
  const double c1 = at("coopt", 1, true);
  checks["coopt_epoch1_few"] = c1;
  checks["coopt_minus_noalign_epoch6"] = at("coopt", 6, true) - at("coopt_noalign", 6, true);
  checks["coopt_minus_ssl_epoch1"] = c1 - at("ssl", 1, true);
  Json reach = nullptr;
  if (few.count("ssl"))
    for (size_t e = 0; e < epochs.size(); ++e)
      if (stat(few["ssl"][e]).mean >= c1) {
        reach = Json(epochs[e]);
        break;
      }
  checks["ssl_first_eval_epoch_reaching_coopt_epoch1"] = reach;
  checks["cnn_minus_mlp_epoch1"] = at("coopt_cnn", 1, true) - c1;
  checks["cnn_minus_mlp_last"] = at("coopt_cnn", epochs.back(), true) - at("coopt", epochs.back(), true);

  Json& sum = ctx.summary();
  sum["data"] = s.data->describe();
  sum["pool_size"] = s.plan.pool_size;
  sum["participants"] = rep.manifest["participants"];
  sum["reference"] = rep.names[static_cast<size_t>(rep.reference)];
  sum["central_prior"] = central_name;
  sum["results"] = results;
  sum["checks"] = checks;
  // Wall-clock times vary run to run, so they stay out of summary.json and comparison.csv.
  Json timing = Json::object();
  timing["priors_s"] = priors_s;
  timing["participant_phase_s"] = participants_s;
  Json per_method = Json::object();
  for (const auto& [m, secs] : train_s) per_method[m] = secs;
  timing["student_train_s_per_seed"] = per_method;
  timing["total_s"] = seconds_since(t_all);
  ctx.write_json("timing.json", timing);

  ctx.say(fmt::format("coopt compare: {} | pool {} | {} participants, reference prior '{}' | {} seed(s)",
                      s.data->describe(), s.plan.pool_size, s.plan.participants(),
                      rep.names[static_cast<size_t>(rep.reference)], o.seeds));
  ctx.say(fmt::format("{:<46} {:>5} {:>16} {:>16}", "method", "epoch", lpc + " labels/class", "all labels"));
  for (const auto& m : o.methods)
    for (size_t e = 0; e < epochs.size(); ++e) {
      const Stat f = stat(few[m][e]), a = stat(all[m][e]);
      ctx.say(fmt::format("{:<46} {:>5} {:>9.2f} +- {:<4.2f} {:>9.2f} +- {:<4.2f}", describe(m), epochs[e], 100 * f.mean,
                          100 * f.sd, 100 * a.mean, 100 * a.sd));
    }
  ctx.say(fmt::format("time: priors {:.1f}s, participant phase {:.1f}s, total {:.1f}s", priors_s, participants_s,
                      seconds_since(t_all)));
}

}  // namespace mlsys::dataopt
