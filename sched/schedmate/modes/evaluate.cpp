// evaluate: SchedMate's accuracy figures in one table: duration prediction (online protocol, per
// VC, beside the Helios-style estimator), failure classification and tracker accuracy on the
// generated corpus, and template mining on a loghub file.
#include <map>

#include "core/util/strings.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

void run_evaluate(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto analyzer = make_analyzer(ctx, o);
  // 1) Duration prediction, per VC and overall.
  auto jobs = input_jobs(ctx, o, *analyzer);
  std::map<std::string, std::vector<AdvisedJob>> by_vc;
  for (const auto& j : jobs) by_vc[j.vc.empty() ? "all" : j.vc].push_back(j);
  Table acc({"vc", "jobs", "schedmate_within_10pct", "schedmate_within_50pct", "helios_within_10pct", "helios_within_50pct"});
  std::vector<double> P, H, T;
  std::vector<Prediction> all_preds;
  for (auto& [vc, list] : by_vc) {
    auto r = predict_online(list, advisor_options(o));  // VCs are independent clusters
    std::vector<double> p, h, t;
    for (size_t i = 0; i < list.size(); ++i) {
      if (!(list[i].duration > 0)) continue;
      p.push_back(r.schedmate[i].duration_s);
      h.push_back(r.helios[i]);
      t.push_back(list[i].duration);
    }
    all_preds.insert(all_preds.end(), r.schedmate.begin(), r.schedmate.end());
    acc.add_row({vc, static_cast<int64_t>(t.size()), within(p, t, 0.1), within(p, t, 0.5), within(h, t, 0.1), within(h, t, 0.5)});
    P.insert(P.end(), p.begin(), p.end());
    H.insert(H.end(), h.begin(), h.end());
    T.insert(T.end(), t.begin(), t.end());
  }
  acc.add_row({"ALL", static_cast<int64_t>(T.size()), within(P, T, 0.1), within(P, T, 0.5), within(H, T, 0.1), within(H, T, 0.5)});
  ctx.write_table("duration_accuracy.csv", acc);
  ctx.write_table("hints.csv", hints_table(all_preds, {}));
  // 2) Failure classification and 3) tracker accuracy on the generated corpus.
  auto corpus = generate_corpus(o.gen_logs_per_case, o.gen_steps, ctx.seed());
  ClassificationReport cls = evaluate_classification(corpus, *analyzer);
  TrackerOptions topt;
  topt.stall_factor = o.stall_factor;
  topt.keep_series = false;
  TrackerReport trk = evaluate_tracker(corpus, topt);
  Table m({"metric", "value", "target"});
  m.add_row({"duration within +-10% (SchedMate)", within(P, T, 0.1), ">= 0.5"});
  m.add_row({"duration within +-50% (SchedMate)", within(P, T, 0.5), ">= 0.8"});
  m.add_row({"duration within +-10% (Helios-style)", within(H, T, 0.1), "reference"});
  m.add_row({"duration within +-50% (Helios-style)", within(H, T, 0.5), "reference"});
  m.add_row({"failure macro-F1 (generated)", cls.macro_f1, ">= 0.95"});
  m.add_row({"retries recommended for user errors", static_cast<int64_t>(cls.user_error_retries), "0"});
  m.add_row({"max remaining-time error after 5% of a run", trk.max_remaining_error, "<= 0.10"});
  m.add_row({"stalls flagged / hung runs", static_cast<double>(trk.stalls_flagged) / std::max(1, trk.stalls_expected), "1"});
  m.add_row({"max stall flag delay (usual gaps)", trk.max_stall_delay_gaps, "<= 3"});
  // 4) Template mining.
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
  ctx.summary()["duration"] = Json(Json::Object{{"jobs", static_cast<int64_t>(T.size())},
                                                {"within_10pct", within(P, T, 0.1)},
                                                {"within_50pct", within(P, T, 0.5)},
                                                {"helios_within_10pct", within(H, T, 0.1)},
                                                {"helios_within_50pct", within(H, T, 0.5)}});
  ctx.summary()["classification"] = cls.to_json();
  ctx.summary()["tracker"] = trk.to_json();
  report_analyzer(ctx, *analyzer);
  acc.set_precision(3);
  for (const auto& line : split(acc.to_text(), '\n'))
    if (!line.empty()) ctx.say(line);
  for (const auto& line : split(m.to_text(), '\n'))
    if (!line.empty()) ctx.say(line);
}

}  // namespace mlsys::schedmate
