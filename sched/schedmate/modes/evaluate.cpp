// evaluate: SchedMate's accuracy figures. Duration prediction (online protocol, per VC, beside the
// Helios-style, GBDT and previous-run baselines), optionally per job type held out of every
// history (unseen-model protocol); failure classification and tracker accuracy on the generated
// corpus; real logs apart from it (labelled logs, MLPerf result logs); template mining on loghub.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "core/util/svg_chart.hpp"
#include "sched/schedmate/eval/duration_eval.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/eval/real_logs.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

namespace {

// The value of `column` in the row whose first cell is `first`.
double cell(const Table& t, const std::string& first, const std::string& column) {
  size_t col = 0;
  while (col < t.columns().size() && t.columns()[col] != column) ++col;
  for (size_t r = 0; r < t.rows(); ++r)
    if (std::get<std::string>(t.row(r)[0]) == first && col < t.columns().size()) {
      const auto& c = t.row(r)[col];
      return std::holds_alternative<double>(c) ? std::get<double>(c) : static_cast<double>(std::get<int64_t>(c));
    }
  return NAN;
}

void say_table(RunContext& ctx, Table t) {
  t.set_precision(3);
  for (const auto& line : split(t.to_text(), '\n'))
    if (!line.empty()) ctx.say(line);
}

// The real-log inputs are checked before the generated-log steps, which take minutes.
void require_real_log_inputs(const SchedmateOptions& o) {
  if (!o.eval_labelled_logs.empty())
    require_input(o.eval_labelled_logs, "schedmate.evaluate.labelled_logs", InputKind::Folder,
                  "a folder of real logs with labels.csv, or \"\" to skip");
  if (o.eval_mlperf_logs.empty()) return;
  require_input(o.eval_mlperf_logs, "schedmate.evaluate.mlperf_logs", InputKind::Folder,
                "a folder of MLPerf result logs, or \"\" to skip");
  if (!o.eval_mlperf_runs.empty())  // empty: evaluate_mlperf_logs says it is needed
    require_input(o.eval_mlperf_runs, "schedmate.evaluate.mlperf_runs", InputKind::File,
                  "the runs.csv whose status is the truth for evaluate.mlperf_logs");
}
// Predicted vs true, every estimator: the scatter and its points as a table (one row per job and
// estimator with a true duration and a prediction), which plot_run.py redraws.
void write_duration_scatter(RunContext& ctx, const std::vector<AdvisedJob>& jobs, const OnlineResult& r) {
  Table points({"job", "estimator", "true_duration_s", "predicted_s"});
  std::vector<ChartSeries> scatter;
  double lo = INFINITY, hi = 0;
  for (const auto& e : duration_estimators()) {
    auto p = predictions(r, e);
    if (p.empty()) continue;
    ChartSeries s{e == "schedmate" ? "SchedMate" : e == "helios" ? "Helios-style" : e == "gbdt" ? "GBDT" : "previous run", {}, {}};
    s.points = true;
    for (size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].duration > 0 && p[i] > 0) {
        s.x.push_back(jobs[i].duration), s.y.push_back(p[i]);
        points.add_row({jobs[i].id, s.name, jobs[i].duration, p[i]});
        lo = std::min(lo, jobs[i].duration), hi = std::max(hi, jobs[i].duration);
      }
    scatter.push_back(std::move(s));
  }
  std::reverse(scatter.begin(), scatter.end());  // SchedMate drawn last, on top
  if (hi > 0) {  // the y = x line and the +-50% band the accuracy figures count
    for (const auto& [name, f] : {std::pair<const char*, double>{"y = x", 1.0}, {"+50%", 1.5}, {"-50%", 0.5}})
      scatter.push_back(ChartSeries{name, {lo, hi}, {f * lo, f * hi}});
  }
  ChartOptions co;
  co.size = ctx.figure_size();
  co.title = "Predicted vs true duration (online)";
  co.x_label = "true duration (s)";
  co.y_label = "predicted duration (s)";
  co.log_x = co.log_y = true;
  ctx.write_text("duration_scatter.svg", line_chart_svg(scatter, co));
  ctx.write_table("duration_predictions.csv", points);
}

// summary.json: the accuracy over all jobs, and over cold starts (no finished run of the job yet)
// and the rest apart.
void summarize_durations(RunContext& ctx, const Table& acc) {
  Json dur = Json::object();
  for (const auto& col : acc.columns())
    if (col != "group") dur[col] = cell(acc, "ALL", col);
  ctx.summary()["duration"] = dur;
  for (const char* part : {"cold", "warm"}) {
    Json d = Json::object();
    for (const auto& col : acc.columns())
      if (col != "group") d[col] = cell(acc, std::string("ALL ") + part, col);
    ctx.summary()[std::string("duration_") + part] = d;
  }
}

// The unseen-model protocol: each job type held out of every history.
void evaluate_unseen_types(RunContext& ctx, const std::vector<AdvisedJob>& jobs, const SchedmateOptions& o,
                           const OnlineOptions& online) {
  Table unseen = unseen_type_table(jobs, o.advisor, online);
  unseen.set_precision(4);
  ctx.write_table("unseen_types.csv", unseen);
  Json u = Json::object();
  for (size_t i = 0; i < unseen.rows(); ++i) {
    const std::string type = std::get<std::string>(unseen.row(i)[0]);
    u[type] = Json(Json::Object{{"jobs", cell(unseen, type, "jobs")},
                                {"within_10pct", cell(unseen, type, "schedmate_within_10pct")},
                                {"within_50pct", cell(unseen, type, "schedmate_within_50pct")},
                                {"median_ape", cell(unseen, type, "schedmate_median_ape")}});
  }
  ctx.summary()["unseen_types"] = u;
}

// The evaluation table's duration rows: SchedMate against its targets, the baselines, cold starts.
void add_duration_rows(Table& m, const Table& acc) {
  m.add_row({"duration within +-10% (SchedMate)", cell(acc, "ALL", "schedmate_within_10pct"), ">= 0.5"});
  m.add_row({"duration within +-50% (SchedMate)", cell(acc, "ALL", "schedmate_within_50pct"), ">= 0.8"});
  const std::vector<std::pair<std::string, std::string>> baselines = {{"helios", "Helios-style"}, {"gbdt", "GBDT"}, {"previous", "previous run"}};
  for (const auto& [e, label] : baselines) {
    if (std::isnan(cell(acc, "ALL", e + "_within_10pct"))) continue;
    m.add_row({"duration within +-10% (" + label + ")", cell(acc, "ALL", e + "_within_10pct"), "reference"});
    m.add_row({"duration within +-50% (" + label + ")", cell(acc, "ALL", e + "_within_50pct"), "reference"});
  }
  // Cold starts apart: the jobs a scheduler has nothing of their own to go by (cold_starts).
  const int64_t cold_jobs = static_cast<int64_t>(cell(acc, "ALL cold", "jobs"));
  m.add_row({"cold starts (jobs)", cold_jobs, "reference"});
  for (const auto& [e, label] : std::vector<std::pair<std::string, std::string>>{{"schedmate", "SchedMate"}, {"helios", "Helios-style"}, {"gbdt", "GBDT"}, {"previous", "previous run"}}) {
    if (std::isnan(cell(acc, "ALL cold", e + "_within_50pct"))) continue;
    m.add_row({"cold starts: duration within +-50% (" + label + ")", cell(acc, "ALL cold", e + "_within_50pct"), "reference"});
    m.add_row({"cold starts: duration median APE (" + label + ")", cell(acc, "ALL cold", e + "_median_ape"), "reference"});
  }
}

// Real logs, apart from the generated ones: labelled logs and MLPerf result logs.
void evaluate_real_logs(RunContext& ctx, const SchedmateOptions& o, Analyzer& analyzer, const InputLimits& limits,
                        Table& m) {
  if (!o.eval_labelled_logs.empty()) {
    RealLogReport real = evaluate_labelled_logs(o.eval_labelled_logs, analyzer, limits);
    ctx.write_table("labelled_logs.csv", real.table);
    ctx.summary()["labelled_logs"] = real.to_json();
    m.add_row({"labelled real logs classified correctly", static_cast<double>(real.correct) / std::max(1, real.logs),
               "1 (" + std::to_string(real.logs) + " logs)"});
    m.add_row({"retries recommended for user errors (real)", static_cast<int64_t>(real.user_error_retries), "0"});
    m.add_row({"tqdm lines of the labelled logs: max fraction error", real.max_fraction_error,
               "<= 0.01 (" + std::to_string(real.tqdm_lines) + " lines)"});
    m.add_row({"tqdm lines of the labelled logs: max remaining-time error", real.max_remaining_error, "<= 0.10"});
  }
  if (!o.eval_mlperf_logs.empty()) {
    MlperfLogReport ml = evaluate_mlperf_logs(o.eval_mlperf_logs, o.eval_mlperf_runs, analyzer, limits);
    ctx.write_table("mlperf_logs.csv", ml.table);
    ctx.summary()["mlperf_logs"] = ml.to_json();
    m.add_row({"aborted MLPerf runs diagnosed (not none/unknown), run_stop status hidden",
               static_cast<double>(ml.aborted_explained) / std::max(1, ml.aborted), "1 (" + std::to_string(ml.aborted) + " runs)"});
    m.add_row({"successful MLPerf runs diagnosed none, run_stop status hidden",
               static_cast<double>(ml.succeeded_clean) / std::max(1, ml.succeeded), "1 (" + std::to_string(ml.succeeded) + " runs)"});
    m.add_row({"aborted MLPerf runs diagnosed, status visible (not a test: the status is the truth)",
               static_cast<double>(ml.aborted_explained_visible) / std::max(1, ml.aborted), "reference"});
    m.add_row({"successful MLPerf runs diagnosed none, status visible",
               static_cast<double>(ml.succeeded_clean_visible) / std::max(1, ml.succeeded), "reference"});
  }
}

}  // namespace

void run_evaluate(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  require_real_log_inputs(o);
  auto analyzer = make_analyzer(ctx, o);
  const InputLimits& limits = o.limits;
  // 1) Duration prediction, per group and overall, every estimator under one protocol.
  auto jobs = input_jobs(ctx, o, *analyzer);
  OnlineOptions online;
  online.gbdt = o.eval_baselines;
  online.previous = o.eval_baselines;
  online.seed = ctx.seed();
  const OnlineResult r = predict_online_by_vc(jobs, o.advisor, online);
  // Only the reported groups are scored and their predictions written: a held-out group is not shown at all.
  const auto shown =
      reported_jobs(jobs, group_of(o.eval_group_by), o.eval_report_groups, "schedmate.evaluate.report_groups");
  Table acc = accuracy_table(jobs, r, group_of(o.eval_group_by), o.eval_report_groups);
  acc.set_precision(4);
  ctx.write_table("duration_accuracy.csv", acc);
  const OnlineResult shown_r = select(r, shown);
  std::vector<AdvisedJob> shown_jobs;
  for (size_t i : shown) shown_jobs.push_back(jobs[i]);
  ctx.write_table("hints.csv", hints_table(shown_r.schedmate, {}));
  write_duration_scatter(ctx, shown_jobs, shown_r);
  summarize_durations(ctx, acc);
  if (o.eval_unseen_types) evaluate_unseen_types(ctx, jobs, o, online);
  // 2) Failure classification and 3) tracker accuracy on the generated corpus.
  auto corpus = generate_corpus(o.gen_logs_per_case, o.gen_steps, ctx.seed());
  ClassificationReport cls = evaluate_classification(corpus, *analyzer);
  TrackerOptions topt;
  topt.stall_factor = o.stall_factor;
  topt.keep_series = false;
  TrackerReport trk = evaluate_tracker(corpus, topt);
  Table m({"metric", "value", "target"});
  add_duration_rows(m, acc);
  m.add_row({"failure macro-F1 (generated)", cls.macro_f1, ">= 0.95"});
  m.add_row({"retries recommended for user errors (generated)", static_cast<int64_t>(cls.user_error_retries), "0"});
  m.add_row({"max remaining-time error after 5% of a run (generated)", trk.max_remaining_error, "<= 0.10"});
  m.add_row({"stalls flagged / hung runs (generated)", static_cast<double>(trk.stalls_flagged) / std::max(1, trk.stalls_expected), "1"});
  m.add_row({"max stall flag delay (usual gaps, generated)", trk.max_stall_delay_gaps, "<= 3"});
  // 4) Real logs, apart from the generated ones.
  evaluate_real_logs(ctx, o, *analyzer, limits, m);
  // 5) Template mining.
  if (!o.loghub.empty()) {
    MiningReport mr = evaluate_mining(o.loghub);
    m.add_row({"template grouping accuracy (loghub)", mr.grouping_accuracy, ">= 0.88"});
    ctx.summary()["mining"] = Json(Json::Object{{"lines", static_cast<int64_t>(mr.lines)},
                                                {"groups", static_cast<int64_t>(mr.groups)},
                                                {"truth_groups", static_cast<int64_t>(mr.truth_groups)},
                                                {"grouping_accuracy", mr.grouping_accuracy}});
  }
  m.set_precision(4);
  ctx.write_table("evaluation.csv", m);
  ctx.summary()["classification"] = cls.to_json();
  ctx.summary()["tracker"] = trk.to_json();
  report_analyzer(ctx, *analyzer);
  say_table(ctx, acc);
  say_table(ctx, m);
}

const bool registered = add_command_mode("schedmate", {"evaluate", "accuracy of duration predictions and failure diagnosis against ground truth", run_evaluate});

}  // namespace mlsys::schedmate
