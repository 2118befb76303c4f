#include "sched/schedmate/options.hpp"

#include "sched/schedmate/command.hpp"

#include "sched/schedmate/analyzer/analyzer.hpp"

namespace mlsys::schedmate {

const config::Section<SchedmateOptions>& schedmate_section() {
  using O = SchedmateOptions;
  static const config::Section<O> s("schedmate", "SchedMate: job insight (advisor, tracker, failure handler)", [](auto& s) {
    s.field("mode", &O::mode, "What to run (the first word after `schedmate`)")
        .choices_described([] { return mode_choices(schedmate_command()); });
    s.field("analyzer", &O::analyzer, "Analyzer backend").choices_described([] { return analyzer_registry().choices(); });
    s.field("jobs", &O::jobs, "Jobs: a trace `simulate` reads or a JSONL of job specs (\"\" = generated jobs)");
    s.field("jobs_format", &O::jobs_format, "jsonl, or a trace reader name (auto: by file)");
    s.field("gpu_type", &O::gpu_type, "GPU type for Gavel trace durations");
    s.field("throughputs", &O::throughputs, "Gavel throughputs CSV (\"\" = $MLSYS_DATA_DIR/jobs/gavel_isolated_throughputs.csv)");
    s.field("log", &O::log, "One job log file or folder (--log); read before `logs`");
    s.field("logs", &O::logs, "Job logs: files or folders of *.log (empty = generated logs)");
    s.field("strip_comments", &O::strip_comments, "Drop lines starting with '# ' (annotations added to sample logs)");
    s.field("follow", &O::follow, "track: follow one growing log file live");
    s.field("poll_interval_s", &O::poll_interval_s, "follow: seconds between polls").range(0.001, 5);
    s.field("idle_timeout_s", &O::idle_timeout_s, "follow: stop after this long without new lines").range(0.01, 86400);
    s.field("max_follow_s", &O::max_follow_s, "follow: stop after this long in any case").range(0.01, 604800);
    s.field("stall_factor", &O::stall_factor, "Stall: no progress for this many times the usual gap").range(1.1, 100);
    s.field("total_steps", &O::total_steps, "Run length when a log never states it (0 = unknown)").min(0);
    s.field("series_every", &O::series_every, "Keep every n-th progress point in progress.csv").range(1, 1000000);
    s.field("k", &O::k, "Advisor: neighbours used").range(1, 100);
    s.field("min_similarity", &O::min_similarity, "Advisor: least similarity of a neighbour").range(0, 1);
    s.field("generate.jobs", &O::gen_jobs, "Generated jobs (demo/evaluate without a trace)").range(1, 1000000);
    s.field("generate.logs_per_case", &O::gen_logs_per_case, "Generated logs per (format, failure category)").range(1, 1000);
    s.field("generate.steps", &O::gen_steps, "Steps of each generated run").range(100, 100000000);
    s.field("loghub", &O::loghub, "evaluate: loghub *_structured.csv for template-mining accuracy (\"\" = skip)");
    s.field("openai.url", &O::openai_url, "openai analyzer: chat-completions URL (http:// only)");
    s.field("openai.model", &O::openai_model, "openai analyzer: model name");
    s.field("openai.api_key_env", &O::openai_api_key_env, "openai analyzer: environment variable holding the API key");
    s.field("openai.timeout_s", &O::openai_timeout_s, "openai analyzer: per-request timeout").range(0.01, 600);
    s.field("openai.retries", &O::openai_retries, "openai analyzer: retries after a failed request").range(0, 10);
    s.field("openai.cache_dir", &O::openai_cache_dir, "openai analyzer: reply cache folder (\"\" = no cache)");
    s.field("openai.max_calls_per_job", &O::openai_max_calls_per_job, "openai analyzer: request budget per job").range(0, 10);
  });
  return s;
}

}  // namespace mlsys::schedmate
