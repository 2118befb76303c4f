// demo (default): the three components on generated jobs and logs, in a few seconds.
#include "core/util/strings.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

void run_demo(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto analyzer = make_analyzer(ctx, o);
  auto jobs = input_jobs(ctx, o, *analyzer);
  auto adv = advise_jobs(ctx, jobs, {}, o);
  auto corpus = generate_corpus(1, o.gen_steps, ctx.seed());
  ClassificationReport cls = evaluate_classification(corpus, *analyzer);
  TrackerOptions topt;
  topt.stall_factor = o.stall_factor;
  topt.keep_series = false;
  TrackerReport trk = evaluate_tracker(corpus, topt);
  Table d({"log", "category", "action", "evidence"});
  for (const auto& c : corpus) {
    if (c.spec.format != LogFormat::Megatron) continue;
    Diagnosis dg = diagnose_log(*analyzer, c.log.lines, c.name, o.stall_factor);
    d.add_row({c.name, std::string(to_string(dg.category)), std::string(to_string(dg.action)), dg.evidence});
  }
  ctx.write_table("diagnoses.csv", d);
  ctx.summary()["advisor"] = Json(Json::Object{{"jobs", static_cast<int64_t>(jobs.size())},
                                               {"within_10pct", adv.within10},
                                               {"within_50pct", adv.within50},
                                               {"helios_within_10pct", adv.helios_within10},
                                               {"helios_within_50pct", adv.helios_within50}});
  ctx.summary()["classification"] = cls.to_json();
  ctx.summary()["tracker"] = trk.to_json();
  report_analyzer(ctx, *analyzer);
  ctx.say("advisor: " + std::to_string(jobs.size()) + " generated jobs, within +-10%/+-50%: " + fixed3(adv.within10) +
          "/" + fixed3(adv.within50) + " (Helios-style " + fixed3(adv.helios_within10) + "/" +
          fixed3(adv.helios_within50) + ")");
  ctx.say("failure handler: " + std::to_string(corpus.size()) + " generated logs, macro-F1 " + fixed3(cls.macro_f1) +
          ", retries for user errors " + std::to_string(cls.user_error_retries));
  ctx.say("tracker: max remaining-time error after 5% " + fixed3(trk.max_remaining_error) + ", stalls flagged " +
          std::to_string(trk.stalls_flagged) + "/" + std::to_string(trk.stalls_expected));
  ctx.say("try: mlsys schedmate evaluate configs/repro/schedmate/duration_accuracy.yaml");
}

const bool registered = add_command_mode("schedmate", {"demo", "advise, track and diagnose generated jobs and logs end to end", run_demo});

}  // namespace mlsys::schedmate
