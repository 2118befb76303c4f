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
    s.field("limits.max_log_bytes", &O::max_log_bytes, "Largest log file read").range(1, int64_t{1} << 40);
    s.field("limits.max_jobs_bytes", &O::max_jobs_bytes, "Largest JSONL file of job specs read").range(1, int64_t{1} << 40);
    s.field("limits.max_script_bytes", &O::max_script_bytes, "Largest \"@file\" script read").range(1, int64_t{1} << 32);
    s.field("limits.max_line_bytes", &O::max_line_bytes, "Longer log lines are cut (and counted)").range(80, int64_t{1} << 30);
    s.field("limits.max_json_depth", &O::max_json_depth, "Deepest nesting accepted in a server's JSON reply").range(4, 200);
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
    s.field("evaluate.group_by", &O::eval_group_by, "evaluate: duration accuracy per group")
        .choices_described([] {
          return std::vector<config::Choice>{{"vc", "per virtual cluster (each is its own online history)"},
                                             {"id_prefix", "per first component of the job id (MLPerf: the round)"}};
        });
    s.field("evaluate.baselines", &O::eval_baselines, "evaluate: GBDT and same-job-previous-run baselines beside Helios-style");
    s.field("evaluate.unseen_types", &O::eval_unseen_types, "evaluate: unseen-model protocol (each job type left out of every history)");
    s.field("evaluate.labelled_logs", &O::eval_labelled_logs, "evaluate: folder of real logs with labels.csv (\"\" = skip)");
    s.field("evaluate.mlperf_logs", &O::eval_mlperf_logs, "evaluate: folder of MLPerf result logs (\"\" = skip)");
    s.field("evaluate.mlperf_runs", &O::eval_mlperf_runs, "evaluate: the runs.csv whose status is the truth for evaluate.mlperf_logs");
    s.field("openai.url", &O::openai_url, "openai analyzer: chat-completions URL (http:// or https://)");
    s.field("openai.model", &O::openai_model, "openai analyzer: model name");
    s.field("openai.api_key_env", &O::openai_api_key_env, "openai analyzer: environment variable holding the API key");
    s.field("openai.timeout_s", &O::openai_timeout_s, "openai analyzer: per-request timeout").range(0.01, 600);
    s.field("openai.retries", &O::openai_retries, "openai analyzer: retries after a failed request").range(0, 10);
    s.field("openai.cache_dir", &O::openai_cache_dir, "openai analyzer: reply cache folder (\"\" = no cache)");
    s.field("openai.max_calls_per_job", &O::openai_max_calls_per_job, "openai analyzer: request budget per job").range(0, 10);
    s.field("openai.max_calls", &O::openai_max_calls, "openai analyzer: request budget per run (then embedded)").range(0, 1000000);
    s.field("openai.max_total_s", &O::openai_max_total_s, "openai analyzer: time budget per run in seconds (then embedded)").range(0, 604800);
    s.field("openai.proxy", &O::openai_proxy, "openai analyzer: proxy URL (\"\" = https_proxy/http_proxy/no_proxy from the environment)");
    s.field("openai.ca_file", &O::openai_ca_file, "openai analyzer: CA certificates for https (\"\" = the system's)");
    s.field("openai.response_format", &O::openai_response_format, "openai analyzer: how replies are constrained")
        .choices_described([] {
          return std::vector<config::Choice>{
              {"json_schema", "response_format json_schema (llama.cpp server, vLLM, Ollama, OpenAI); a server that rejects it is asked again without"},
              {"json_object", "response_format json_object, the schema in the prompt"},
              {"none", "no response_format, the schema in the prompt"}};
        });
    s.field("openai.audit", &O::openai_audit, "openai analyzer: log requests and replies to llm_audit.jsonl (API key redacted)");
  });
  return s;
}

}  // namespace mlsys::schedmate
