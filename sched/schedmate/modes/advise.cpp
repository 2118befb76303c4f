// advise: per-job duration predictions (online protocol) and the hints CSV for `mlsys simulate`.
#include <filesystem>

#include "core/util/strings.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

void run_advise(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto analyzer = make_analyzer(ctx, o);
  auto jobs = input_jobs(ctx, o, *analyzer);
  // Logs named <job_id>.log carry failure decisions into the hints.
  std::map<std::string, FailureAction> actions;
  for (const auto& f : input_log_files(o)) {
    std::string id = std::filesystem::path(f).stem().string();
    Diagnosis d = diagnose_log(*analyzer, read_log_lines(f, o), id, o.stall_factor);
    actions[id] = d.action;
  }
  auto out = advise_jobs(ctx, jobs, actions, o);
  ctx.summary()["jobs"] = static_cast<int64_t>(jobs.size());
  ctx.summary()["within_10pct"] = out.within10;
  ctx.summary()["within_50pct"] = out.within50;
  ctx.summary()["helios_style_within_10pct"] = out.helios_within10;
  ctx.summary()["helios_style_within_50pct"] = out.helios_within50;
  report_analyzer(ctx, *analyzer);
  ctx.say("advised " + std::to_string(jobs.size()) + " jobs (online protocol); hints: " + ctx.path("hints.csv").string());
  if (out.with_truth > 0)
    ctx.say("duration within +-10% / +-50%: SchedMate " + fixed3(out.within10) + " / " + fixed3(out.within50) +
            ", Helios-style " + fixed3(out.helios_within10) + " / " + fixed3(out.helios_within50));
}

const bool registered = add_command_mode("schedmate", {"advise", "predict durations and failure actions for jobs; writes hints.csv for simulate", run_advise});

}  // namespace mlsys::schedmate
