#include "sched/schedmate/analyzer/analyzer.hpp"

#include "sched/schedmate/tracker/metric_tracker.hpp"

namespace mlsys::schedmate {

Diagnosis diagnose_log(Analyzer& analyzer, const std::vector<std::string>& lines, const std::string& job_key,
                       double stall_factor) {
  TrackerOptions o;
  o.stall_factor = stall_factor;
  o.keep_series = false;
  MetricTracker tr(o);
  for (const auto& l : lines) tr.feed(l);
  const TrackerSnapshot s = tr.snapshot();
  RunEvidence run;
  run.progressed = s.progress_lines > 0;
  run.stalled = s.stalled;
  run.quality = s.quality;
  run.quality_target = s.quality_target;
  return analyzer.diagnose(lines, run, job_key);
}

AnalyzerRegistry& analyzer_registry() {
  static AnalyzerRegistry r("analyzer backend");
  return r;
}

Json AnalyzerStats::to_json() const {
  Json j = Json::object();
  j["calls"] = calls;
  j["cache_hits"] = cache_hits;
  j["fallbacks"] = fallbacks;
  j["invalid_replies"] = invalid;
  j["errors"] = errors;
  j["over_budget"] = over_budget;
  j["format_downgrades"] = format_downgrades;
  return j;
}

const config::Section<AnalyzerOptions>& analyzer_section() {
  using A = AnalyzerOptions;
  static const config::Section<A> s("openai", "SchedMate openai analyzer", [](auto& s) {
    s.field("url", &A::url, "openai analyzer: chat-completions URL (http:// or https://)");
    s.field("model", &A::model, "openai analyzer: model name");
    s.field("api_key_env", &A::api_key_env, "openai analyzer: environment variable holding the API key");
    s.field("timeout_s", &A::timeout_s, "openai analyzer: per-request timeout").range(0.01, 600);
    s.field("retries", &A::retries, "openai analyzer: retries after a failed request").range(0, 10);
    s.field("cache_dir", &A::cache_dir, "openai analyzer: reply cache folder (\"\" = no cache)");
    s.field("max_calls_per_job", &A::max_calls_per_job, "openai analyzer: request budget per job").range(0, 10);
    s.field("max_calls", &A::max_calls, "openai analyzer: request budget per run (then embedded)").range(0, 1000000);
    s.field("max_total_s", &A::max_total_s, "openai analyzer: time budget per run in seconds (then embedded)").range(0, 604800);
    s.field("proxy", &A::proxy, "openai analyzer: proxy URL (\"\" = https_proxy/http_proxy/no_proxy from the environment)");
    s.field("ca_file", &A::ca_file, "openai analyzer: CA certificates for https (\"\" = the system's)");
    s.field("response_format", &A::response_format, "openai analyzer: how replies are constrained")
        .choices_described([] {
          return std::vector<config::Choice>{
              {"json_schema", "response_format json_schema (llama.cpp server, vLLM, Ollama, OpenAI); a server that rejects it is asked again without"},
              {"json_object", "response_format json_object, the schema in the prompt"},
              {"none", "no response_format, the schema in the prompt"}};
        });
    s.field("audit", &A::audit, "openai analyzer: log requests and replies to llm_audit.jsonl (API key redacted)");
  });
  return s;
}

}  // namespace mlsys::schedmate
