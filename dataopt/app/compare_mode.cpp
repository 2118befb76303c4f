// `mlsys coopt compare`: the whole evaluation in one run. Priors (cached), the participant phase,
// then for each seed every method's student, probed after each eval epoch with few and all labels.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "core/log/log.hpp"
#include "core/process/system.hpp"
#include "core/runtime/table.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "core/util/stats.hpp"
#include "core/util/svg_chart.hpp"
#include "core/util/thread_pool.hpp"
#include "dataopt/app/modes.hpp"
#include "dataopt/app/setup.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/eval/claims.hpp"
#include "dataopt/eval/comparison_methods.hpp"
#include "dataopt/eval/probe.hpp"
#include "dataopt/math/projection.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"

namespace mlsys::dataopt {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

const std::string& describe(const std::string& m) { return comparison_method(m).label; }

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// What a curve's points are over seeds: "mean +- sd over 3 seeds"; one seed has no mean or spread.
std::string over_seeds(int seeds, bool sd) {
  if (seeds == 1) return "one seed";
  return std::string(sd ? "mean +- sd" : "mean") + " over " + std::to_string(seeds) + " seeds";
}

// Whether any of `methods` trains on `targets` (those targets are prepared only then).
bool uses(const std::vector<std::string>& methods, StudentTargets targets) {
  for (const auto& m : methods)
    if (comparison_method(m).targets == targets) return true;
  return false;
}

// An accuracy chart (percent) whose y axis starts at the 5-point step below the lowest value.
std::string accuracy_chart(const std::vector<ChartSeries>& series, const std::string& title, const std::string& x_label,
                           const std::string& y_label, FigureSize size) {
  double lo = 100;
  for (const ChartSeries& s : series)
    for (double y : s.y) lo = std::min(lo, y);
  ChartOptions o;
  o.size = size;
  o.title = title;
  o.x_label = x_label;
  o.y_label = y_label;
  o.y_min = std::max(0.0, 5 * std::floor(lo / 5 - 0.2));
  return line_chart_svg(series, o);
}

// One method's results per probe epoch: few- and all-label accuracy over seeds and the mean
// training time up to that epoch.
struct Curve {
  std::vector<MeanSd> few, all;
  std::vector<double> seconds;
};
using Curves = std::map<std::string, Curve>;

// The probe epochs, sorted and unique; the time-to-accuracy target epoch must be one of them.
std::vector<int64_t> probe_epochs(const CooptOptions& o) {
  std::vector<int64_t> epochs = o.eval_epochs;
  std::sort(epochs.begin(), epochs.end());
  epochs.erase(std::unique(epochs.begin(), epochs.end()), epochs.end());
  if (o.target_epoch > 0 && has(o.methods, "coopt") && !std::binary_search(epochs.begin(), epochs.end(), o.target_epoch))
    throw ConfigError("coopt.eval.target_epoch " + std::to_string(o.target_epoch) + " is not one of coopt.eval.epochs");
  return epochs;
}

// What the students regress onto, standardized: the aligned targets, the unaligned ones (T = I)
// and the upper reference, one prior embedding the whole pool centrally (each only when a method
// trains on it).
struct TargetSets {
  Tensor aligned, unaligned, central;
  std::string central_name;
};

TargetSets student_target_sets(const Setup& s, const ParticipantReport& rep, const OptimizedDataset& od,
                               DeviceContext& device) {
  const CooptOptions& o = s.opt;
  TargetSets t;
  t.aligned = standardized(device, od.targets);
  if (od.targets_unaligned.defined()) t.unaligned = standardized(device, od.targets_unaligned);
  if (uses(o.methods, StudentTargets::unaligned) && !t.unaligned.defined())
    throw ConfigError("coopt_noalign needs coopt.write_unaligned: true");
  t.central_name = o.central_prior.empty() ? rep.names[static_cast<size_t>(rep.reference)] : o.central_prior;
  if (uses(o.methods, StudentTargets::central)) {
    auto it = std::find(rep.names.begin(), rep.names.end(), t.central_name);
    if (it == rep.names.end()) throw ConfigError("coopt.eval.central_prior '" + t.central_name + "' is not a prior name");
    const int k = static_cast<int>(it - rep.names.begin());
    Prior p = obtain_prior(s.plan, k, build_context(device, s.plan, *s.data, k, od.geometry));
    const Tensor w = random_projection(p.dim(), s.plan.align.common_dim, projection_seed(s.plan.seed, k));
    t.central = standardized(device, project(device, p.embed(device, od.images, iota_rows(0, od.images.rows())), w));
  }
  return t;
}

// One (seed, method) student: an independent job on its own context.
struct StudentJob {
  int seed_index;
  std::string method;
  std::vector<ProbePoint> points;
};

// Slowest (CNN students) first, so the last jobs are short.
std::vector<StudentJob> plan_student_jobs(const CooptOptions& o) {
  std::vector<StudentJob> jobs;
  for (const auto& m : o.methods)
    if (comparison_method(m).arch == StudentArch::cnn)
      for (int si = 0; si < o.seeds; ++si) jobs.push_back({si, m, {}});
  for (int si = 0; si < o.seeds; ++si)
    for (const auto& m : o.methods)
      if (comparison_method(m).arch != StudentArch::cnn) jobs.push_back({si, m, {}});
  return jobs;
}

// Trains (or, for untrained rows, probes) one job's student on its own context.
void run_student_job(const CooptOptions& o, uint64_t run_seed, const OptimizedDataset& od, const TargetSets& t,
                     const ProbeData& pd, const std::vector<int64_t>& few_rows, const std::vector<int64_t>& epochs,
                     StudentJob& job, DeviceContext& job_device) {
  const uint64_t seed = run_seed + static_cast<uint64_t>(job.seed_index);
  ProbeData local = pd;  // shares nothing mutable with other jobs
  local.few_rows = few_rows;
  const std::string& m = job.method;
  const ComparisonMethod& method = comparison_method(m);
  if (method.arch == StudentArch::none) {
    const ProbePoint p = probe_features(job_device, local.pool_images, local.test_images, local, 0);
    for (int64_t e : epochs) job.points.push_back({static_cast<int>(e), p.few, p.all, 0});
  } else {
    StudentRun r;
    r.arch = method.arch == StudentArch::cnn ? o.cnn_arch : o.mlp_arch;
    r.geometry = od.geometry;
    r.fit = student_fit(o, derive_seed(seed, 0x51));
    r.eval_epochs = epochs;
    r.init_seed = derive_seed(seed, 0x1417);
    r.objective = method.objective;
    if (method.objective == StudentObjective::contrastive) {
      r.simclr = o.plan.simclr;
      r.fit.lr = o.plan.simclr.lr;
      r.fit.batch = o.plan.simclr.batch;
      r.fit.augment = simclr_augment(o.plan.simclr, r.fit.augment);
    }
    const std::map<StudentTargets, const Tensor*> targets{
        {StudentTargets::aligned, &t.aligned}, {StudentTargets::unaligned, &t.unaligned}, {StudentTargets::central, &t.central}};
    if (method.targets != StudentTargets::none) r.targets = targets.at(method.targets);
    // The participants' weights come from the alignment, so only the aligned rows use them.
    if (method.weighted) r.weights = &od.weight;
    job.points = run_student(job_device, r, od.images, local);
  }
  log::info("coopt: seed {} {:<14} epoch {} few {:.4f} all {:.4f} ({:.1f}s)", seed, m, job.points.back().epoch,
            job.points.back().few, job.points.back().all, job.points.back().train_seconds);
}

// Every job on ctx.threads() workers with one BLAS/OpenMP thread each, which uses the cores far
// better than threading small GEMMs.
void run_student_jobs(RunContext& ctx, Setup& s, const OptimizedDataset& od, const TargetSets& t, const ProbeData& pd,
                      const std::vector<int64_t>& epochs, std::vector<StudentJob>& jobs) {
  const CooptOptions& o = s.opt;
  std::vector<std::vector<int64_t>> few_rows(static_cast<size_t>(o.seeds));
  for (int si = 0; si < o.seeds; ++si)
    few_rows[static_cast<size_t>(si)] =
        labeled_subset(pd.pool_labels, pd.classes, o.labels_per_class, derive_seed(ctx.seed() + static_cast<uint64_t>(si), 0xfe3));
  // The jobs' contexts are made and released here, in job order, so summary.json lists their pools
  // in the same order every run (workers would register them in whatever order they start).
  std::vector<std::unique_ptr<DeviceContext>> job_devices;
  for (const StudentJob& job : jobs)
    job_devices.push_back(s.context(fmt::format("coopt.{}.seed{}", job.method, ctx.seed() + static_cast<uint64_t>(job.seed_index))));
  {
    OneMathThread one;
    ParallelOptions po;
    po.threads = ctx.threads();
    po.stop = [] { return RunContext::stop_requested(); };
    parallel_for(jobs.size(), po, [&](size_t i) {
      set_thread_count(1);  // this worker's OpenMP count
      run_student_job(o, ctx.seed(), od, t, pd, few_rows[static_cast<size_t>(jobs[i].seed_index)], epochs, jobs[i],
                      *job_devices[i]);
      job_devices[i]->pool().release_cached();  // its statistics stay; its memory goes back now
    });
  }
  for (auto& d : job_devices) d.reset();
  if (RunContext::stop_requested()) throw Error("interrupted");
}

// Mean and sd over seeds per method and probe epoch.
Curves curves_of(const CooptOptions& o, const std::vector<int64_t>& epochs, const std::vector<StudentJob>& jobs) {
  Curves curves;
  for (const auto& m : o.methods) {
    Curve& c = curves[m];
    for (size_t e = 0; e < epochs.size(); ++e) {
      std::vector<double> few, all, secs;
      for (const StudentJob& job : jobs)
        if (job.method == m) {
          few.push_back(job.points[e].few);
          all.push_back(job.points[e].all);
          secs.push_back(job.points[e].train_seconds);
        }
      c.few.push_back(mean_sd(few));
      c.all.push_back(mean_sd(all));
      c.seconds.push_back(mean_sd(secs).mean);
    }
  }
  return curves;
}

// A method's mean accuracy at a probe epoch (NaN when the method or the epoch is not in the run).
double mean_at(const Curves& curves, const std::vector<int64_t>& epochs, const std::string& m, int64_t epoch,
               bool few_labels) {
  auto it = std::find(epochs.begin(), epochs.end(), epoch);
  auto c = curves.find(m);
  if (c == curves.end() || it == epochs.end()) return std::nan("");
  const size_t e = static_cast<size_t>(it - epochs.begin());
  return (few_labels ? c->second.few : c->second.all)[e].mean;
}

// Time to accuracy: the first probe epoch at which each row's mean few-label accuracy reaches
// CoOpt aligned's after eval.target_epoch (the paper's speed-up claim), and its training time.
struct TimeToTarget {
  double target = std::nan("");
  std::map<std::string, int64_t> epoch;
  std::map<std::string, double> seconds;
};

TimeToTarget time_to_target(const CooptOptions& o, const std::vector<int64_t>& epochs, const Curves& curves) {
  TimeToTarget r;
  if (o.target_epoch > 0) r.target = mean_at(curves, epochs, "coopt", o.target_epoch, true);
  if (std::isnan(r.target)) return r;
  for (const auto& m : o.methods)
    for (size_t e = 0; e < epochs.size(); ++e)
      if (curves.at(m).few[e].mean >= r.target) {
        r.epoch[m] = epochs[e];
        r.seconds[m] = curves.at(m).seconds[e];
        break;
      }
  return r;
}

// comparison.csv and the three accuracy figures; returns summary.json's per-method results.
Json write_results(RunContext& ctx, const CooptOptions& o, const std::vector<int64_t>& epochs, const Curves& curves) {
  Table table({"method", "epoch", "few_label_acc", "few_label_sd", "all_label_acc", "all_label_sd"});
  table.set_precision(4);
  std::vector<ChartSeries> plot_few, plot_all, plot_time;
  Json results = Json::object();
  for (const auto& m : o.methods) {
    const Curve& c = curves.at(m);
    ChartSeries pf{m, {}, {}}, pa{m, {}, {}}, pt{m, {}, {}};
    Json jm = Json::array();
    for (size_t e = 0; e < epochs.size(); ++e) {
      table.add_row({m, epochs[e], c.few[e].mean, c.few[e].sd, c.all[e].mean, c.all[e].sd});
      pf.x.push_back(static_cast<double>(epochs[e]));
      pf.y.push_back(100 * c.few[e].mean);
      pf.y_err.push_back(100 * c.few[e].sd);  // error bars: +- sd over seeds
      pa.x.push_back(static_cast<double>(epochs[e]));
      pa.y.push_back(100 * c.all[e].mean);
      pa.y_err.push_back(100 * c.all[e].sd);
      jm.push_back(Json(Json::Object{{"epoch", Json(epochs[e])}, {"few", Json(c.few[e].mean)}, {"few_sd", Json(c.few[e].sd)},
                                     {"all", Json(c.all[e].mean)}, {"all_sd", Json(c.all[e].sd)}}));
    }
    if (comparison_method(m).trains()) {  // untrained rows take no training time
      pt.x = c.seconds;
      pt.y = pf.y;
      plot_time.push_back(pt);
    }
    results[m] = jm;
    plot_few.push_back(pf);
    plot_all.push_back(pa);
  }
  ctx.write_table("comparison.csv", table);
  const std::string lpc = std::to_string(o.labels_per_class);
  const std::string scored = o.eval_on == "validation" ? "validation rows" : "test";
  const FigureSize size = ctx.figure_size();
  ctx.write_text("accuracy_few_labels.svg",
                 accuracy_chart(plot_few, "Linear probe, " + lpc + " labels/class (" + over_seeds(o.seeds, true) + ")", "student epochs",
                                scored + " accuracy (%)", size));
  ctx.write_text("accuracy_all_labels.svg", accuracy_chart(plot_all, "Linear probe, all pool labels (" + over_seeds(o.seeds, true) + ")",
                                                           "student epochs", scored + " accuracy (%)", size));
  // Wall time varies run to run: this plot, like timing.json, is not a deterministic output.
  ctx.write_text("accuracy_vs_time.svg",
                 accuracy_chart(plot_time,
                                "Linear probe, " + lpc + " labels/class, against training time (" + over_seeds(o.seeds, false) + ")",
                                "training seconds per student on this machine", scored + " accuracy (%)", size));
  return results;
}

// The protocol's claims (issue 14), evaluated on this run.
Json protocol_checks(const CooptOptions& o, const std::vector<int64_t>& epochs, const Curves& curves,
                     const TimeToTarget& ttt) {
  auto at = [&](const std::string& m, int64_t epoch) { return mean_at(curves, epochs, m, epoch, true); };
  const int64_t last = epochs.back();
  Json checks = Json::object();
  checks["last_epoch"] = last;
  checks["coopt_minus_noalign_last"] = at("coopt", last) - at("coopt_noalign", last);
  checks["coopt_minus_simclr_epoch1"] = at("coopt", 1) - at("simclr", 1);
  checks["target_accuracy"] = ttt.target;
  Json reach = Json::object();
  for (const auto& m : o.methods) reach[m] = ttt.epoch.count(m) ? Json(ttt.epoch.at(m)) : Json(nullptr);
  checks["first_epoch_reaching_target"] = reach;
  Json simclr_vs_random = Json::object();
  for (int64_t e : epochs) simclr_vs_random[std::to_string(e)] = at("simclr", e) - at("random", e);
  checks["simclr_minus_random"] = simclr_vs_random;
  checks["cnn_minus_mlp_last"] = at("coopt_cnn", last) - at("coopt", last);
  return checks;
}

// The claims, judged on each seed's pair of few-label accuracies at the last probe epoch;
// `lines` gets one console line per claim.
Json judge_claims(const CooptOptions& o, const std::vector<StudentJob>& jobs, int64_t last,
                  std::vector<std::string>& lines) {
  auto per_seed = [&](const std::string& m) {
    std::vector<double> v(static_cast<size_t>(o.seeds));
    for (const StudentJob& job : jobs)
      if (job.method == m) v[static_cast<size_t>(job.seed_index)] = job.points.back().few;
    return v;
  };
  Json claims = Json::object();
  for (const Claim& c : comparison_claims()) {
    if (!has(o.methods, c.better) || !has(o.methods, c.worse)) continue;
    const ClaimVerdict v = judge_claim(per_seed(c.better), per_seed(c.worse), o.claim_margin);
    Json gains = Json::array();
    std::string listed;
    for (double g : v.gains) {
      gains.push_back(g);
      listed += fmt::format(" {:+.2f}", g);
    }
    claims[c.name] = Json(Json::Object{{"better", Json(c.better)},
                                       {"worse", Json(c.worse)},
                                       {"epoch", Json(last)},
                                       {"gain_points", gains},
                                       {"gain_mean", Json(v.gain.mean)},
                                       {"gain_sd", Json(v.gain.sd)},
                                       {"margin", Json(o.claim_margin)},
                                       {"holds", Json(v.holds)},
                                       {"reason", Json(v.reason)}});
    lines.push_back(fmt::format("  {:<13} {} > {}: {} (per seed{})", v.holds ? "holds" : "DOES NOT HOLD", describe(c.better),
                                describe(c.worse), v.reason, listed));
  }
  return claims;
}

// Wall-clock times vary run to run, so they stay out of summary.json and comparison.csv.
Json timing_record(const CooptOptions& o, const std::vector<int64_t>& epochs, const Curves& curves,
                   const TimeToTarget& ttt, double priors_s, double participants_s, double total_s) {
  Json timing = Json::object();
  timing["priors_s"] = priors_s;
  timing["participant_phase_s"] = participants_s;
  Json per_method = Json::object(), to_target = Json::object();
  for (const auto& m : o.methods) {
    Json secs = Json::array();
    for (double v : curves.at(m).seconds) secs.push_back(v);
    per_method[m] = secs;
    to_target[m] = ttt.seconds.count(m) ? Json(ttt.seconds.at(m)) : Json(nullptr);
  }
  timing["epochs"] = Json(Json::Array(epochs.begin(), epochs.end()));
  timing["student_train_s_per_seed"] = per_method;
  timing["train_s_to_target"] = to_target;
  timing["total_s"] = total_s;
  return timing;
}

// The console table: every method's accuracy per probe epoch, time to the target, the claims.
void say_results(RunContext& ctx, const Setup& s, const ParticipantReport& rep, const std::vector<int64_t>& epochs,
                 const Curves& curves, const TimeToTarget& ttt, const std::vector<std::string>& claim_lines) {
  const CooptOptions& o = s.opt;
  const std::string lpc = std::to_string(o.labels_per_class);
  const std::string scored = o.eval_on == "validation" ? "validation rows" : "test";
  ctx.say(fmt::format("coopt compare: {} | pool {} | {} participants, reference prior '{}' | {} seed(s) | scored on {}",
                      s.data->describe(), s.plan.pool_size, s.plan.participants(),
                      rep.names[static_cast<size_t>(rep.reference)], o.seeds, scored));
  ctx.say(fmt::format("{:<40} {:>5} {:>16} {:>16} {:>8}", "method", "epoch", lpc + " labels/class", "all labels", "train s"));
  for (const auto& m : o.methods)
    for (size_t e = 0; e < epochs.size(); ++e) {
      const Curve& c = curves.at(m);
      ctx.say(fmt::format("{:<40} {:>5} {:>9.2f} +- {:<4.2f} {:>9.2f} +- {:<4.2f} {:>8.1f}", describe(m), epochs[e],
                          100 * c.few[e].mean, 100 * c.few[e].sd, 100 * c.all[e].mean, 100 * c.all[e].sd, c.seconds[e]));
    }
  const int64_t last = epochs.back();
  if (!std::isnan(ttt.target)) {
    ctx.say(fmt::format("time to {:.2f}% ({} labels/class; CoOpt aligned after epoch {}):", 100 * ttt.target, lpc, o.target_epoch));
    for (const auto& m : o.methods)
      ctx.say(ttt.epoch.count(m)
                  ? fmt::format("  {:<38} epoch {:>3}, {:.1f}s of training", describe(m), ttt.epoch.at(m), ttt.seconds.at(m))
                  : fmt::format("  {:<38} not within {} epochs", describe(m), last));
  }
  if (!claim_lines.empty()) {
    ctx.say(fmt::format("claims ({} labels/class, epoch {}, paired over {}; need a mean gain >= {:.2f} points and > its sd):", lpc,
                        last, std::to_string(o.seeds) + " seeds", o.claim_margin));
    for (const std::string& line : claim_lines) ctx.say(line);
  }
}

}  // namespace

void compare_mode(RunContext& ctx) {
  const auto t_all = std::chrono::steady_clock::now();
  Setup s = make_setup(ctx);
  const CooptOptions& o = s.opt;
  const std::vector<int64_t> epochs = probe_epochs(o);
  auto t = std::chrono::steady_clock::now();
  prepare_priors(s);
  const double priors_s = seconds_since(t);
  bool root = false;
  ParticipantReport rep = participant_phase(ctx, s, &root);
  if (!root) return;  // other MPI ranks are done after the participant phase
  const double participants_s = rep.seconds;

  OptimizedDataset od = read_optimized(s.plan.dataset_dir);
  for (size_t i = 0; i < od.index.size(); ++i)
    if (od.index[i] != static_cast<int32_t>(i)) throw Error("optimized dataset rows are not in pool order");
  const auto device = s.context("coopt");
  const TargetSets targets = student_target_sets(s, rep, od, *device);
  const ProbeData pd = probe_data(s, od.images, ctx.seed());
  std::vector<StudentJob> jobs = plan_student_jobs(o);
  run_student_jobs(ctx, s, od, targets, pd, epochs, jobs);
  const Curves curves = curves_of(o, epochs, jobs);
  const TimeToTarget ttt = time_to_target(o, epochs, curves);
  const Json results = write_results(ctx, o, epochs, curves);
  std::vector<std::string> claim_lines;
  const Json claims = judge_claims(o, jobs, epochs.back(), claim_lines);

  Json& sum = ctx.summary();
  sum["data"] = s.data->describe();
  sum["scored_on"] = o.eval_on;
  sum["pool_size"] = s.plan.pool_size;
  sum["participants"] = rep.manifest["participants"];
  sum["reference"] = rep.names[static_cast<size_t>(rep.reference)];
  sum["central_prior"] = targets.central_name;
  sum["results"] = results;
  sum["checks"] = protocol_checks(o, epochs, curves, ttt);
  sum["claims"] = claims;
  ctx.write_json("timing.json",
                 timing_record(o, epochs, curves, ttt, priors_s, participants_s, seconds_since(t_all)));
  say_results(ctx, s, rep, epochs, curves, ttt, claim_lines);
  ctx.say(fmt::format("time: priors {:.1f}s, participant phase {:.1f}s, total {:.1f}s", priors_s, participants_s,
                      seconds_since(t_all)));
}

const bool registered = add_command_mode(
    "coopt", {"compare", "the full evaluation table: baselines, CoOpt variants, students, probes and plots", compare_mode});

}  // namespace mlsys::dataopt
