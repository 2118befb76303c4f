#include "sched/schedmate/options.hpp"

#include "core/runtime/command.hpp"

#include "sched/schedmate/analyzer/analyzer.hpp"

namespace mlsys::schedmate {

const config::Section<SchedmateOptions>& schedmate_section() {
  using O = SchedmateOptions;
  static const config::Section<O> s("schedmate", "SchedMate: job insight (advisor, tracker, failure handler)", [](auto& s) {
    s.field("mode", &O::mode, "What to run (the first word after `schedmate`)")
        .choices_described([] { return mode_choices("schedmate"); });
    s.field("analyzer", &O::analyzer, "Analyzer backend").choices_described([] { return analyzer_registry().choices(); });
    s.field("jobs", &O::jobs, "Jobs: a trace `simulate` reads or a JSONL of job specs (\"\" = generated jobs)");
    s.field("jobs_format", &O::jobs_format, "jsonl, or a trace reader name (auto: by file)");
    s.field("exclude_ids", &O::exclude_ids,
            "Job ids to leave out of `jobs` (records the data marks invalid; as simulate's trace.exclude_ids); an id "
            "that matches no job stops the run");
    s.field("gpu_type", &O::gpu_type, "GPU type for Gavel trace durations");
    s.field("throughputs", &O::throughputs, "Gavel throughputs CSV (gavel_isolated_throughputs.csv); Gavel traces need it");
    s.field("log", &O::log, "One job log file or folder (--log); read before `logs`");
    s.field("logs", &O::logs, "Job logs: files or folders of *.log (empty = generated logs)");
    s.field("annotations", &O::annotations, "Curator lines in sample logs (\"# LABEL: ...\")")
        .choices_described([] {
          return std::vector<config::Choice>{{"skip", "not part of the job's log: never read as evidence"},
                                             {"read", "read them like any other line"}};
        });
    s.field("script_dir", &O::script_dir, "Folder that \"@file\" scripts of job specs must be in (\"\" = the jobs file's folder)");
    s.nest("limits", &O::limits, input_limits_section());
    s.field("follow", &O::follow, "track: follow one growing log file live");
    s.field("poll_interval_s", &O::poll_interval_s, "follow: seconds between polls").range(0.001, 5);
    s.field("idle_timeout_s", &O::idle_timeout_s, "follow: stop after this long without new lines").range(0.01, 86400);
    s.field("max_follow_s", &O::max_follow_s, "follow: stop after this long in any case").range(0.01, 604800);
    s.field("follow_wait_s", &O::follow_wait_s,
            "follow: seconds to wait for a log that does not exist yet (a job not started); 0: the log must exist")
        .range(0, 604800);
    s.field("stall_factor", &O::stall_factor, "Stall: no progress for this many times the usual gap").range(1.1, 100);
    s.field("total_steps", &O::total_steps, "Run length when a log never states it (0 = unknown)").min(0);
    s.field("series_every", &O::series_every, "Keep every n-th progress point in progress.csv").range(1, 1000000);
    s.nest("", &O::advisor, advisor_section());
    s.field("generate.jobs", &O::gen_jobs, "Generated jobs (demo/evaluate without a trace)").range(1, 1000000);
    s.field("generate.logs_per_case", &O::gen_logs_per_case, "Generated logs per (format, failure category)").range(1, 1000);
    s.field("generate.steps", &O::gen_steps, "Steps of each generated run").range(100, 100000000);
    s.field("loghub", &O::loghub, "evaluate: loghub *_structured.csv for template-mining accuracy (\"\" = skip)");
    s.field("evaluate.group_by", &O::eval_group_by, "evaluate: duration accuracy per group")
        .choices_described([] {
          return std::vector<config::Choice>{{"vc", "per virtual cluster (each is its own online history)"},
                                             {"id_prefix", "per first component of the job id (MLPerf: the round)"}};
        });
    s.field("evaluate.report_groups", &O::eval_report_groups,
            "evaluate: groups whose duration figures are scored and written ([] = all); the other groups' jobs are "
            "still predicted and in the one history (a held-out part stays unseen while a method is designed)");
    s.field("evaluate.baselines", &O::eval_baselines, "evaluate: GBDT and same-job-previous-run baselines beside Helios-style");
    s.field("evaluate.unseen_types", &O::eval_unseen_types, "evaluate: unseen-model protocol (each job type left out of every history)");
    s.field("evaluate.labelled_logs", &O::eval_labelled_logs, "evaluate: folder of real logs with labels.csv (\"\" = skip)");
    s.field("evaluate.mlperf_logs", &O::eval_mlperf_logs, "evaluate: folder of MLPerf result logs (\"\" = skip)");
    s.field("evaluate.mlperf_runs", &O::eval_mlperf_runs, "evaluate: the runs.csv whose status is the truth for evaluate.mlperf_logs");
    s.nest("openai", &O::openai, analyzer_section());
  });
  return s;
}

}  // namespace mlsys::schedmate
