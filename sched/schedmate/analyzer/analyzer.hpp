#pragma once
// Analyzer backends: who reads text for SchedMate. `embedded` (rules, templates, retrieval) is the
// default; `openai` asks an OpenAI-compatible chat-completions server and falls back to embedded.
// Calls are per job (fact extraction), per new log format (pattern) and per failure (diagnosis),
// never per log line.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/registry/registry.hpp"
#include "core/util/json.hpp"
#include "sched/schedmate/advisor/facts.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "sched/schedmate/tracker/learned_format.hpp"

namespace mlsys::schedmate {

struct AnalyzerOptions {
  std::string url = "http://127.0.0.1:8080/v1/chat/completions";
  std::string model = "local";
  std::string api_key_env = "";   // name of the environment variable holding the key ("" = none)
  double timeout_s = 30;
  int retries = 2;
  std::string cache_dir = "";     // "" = no cache
  int max_calls_per_job = 3;
  int64_t max_calls = 200;        // requests per run
  double max_total_s = 120;       // seconds of requests per run
  std::string proxy;              // "" = the environment's
  std::string ca_file;            // "" = the system's
  std::string response_format = "json_schema";  // json_schema | json_object | none
  bool audit = false;             // the run sets audit_path when true
  std::string audit_path;         // "" = no audit log; else JSONL of requests and replies, key redacted
  // Not an analyzer key: the run copies schedmate.limits.max_json_depth here (one key, two readers).
  int max_json_depth = InputLimits{}.max_json_depth;
};

// The openai analyzer's config keys (schedmate.openai.*), declared once; schedmate_section() nests them.
const config::Section<AnalyzerOptions>& analyzer_section();

struct AnalyzerStats {
  int64_t calls = 0;       // requests sent
  int64_t cache_hits = 0;
  int64_t fallbacks = 0;   // answers that came from embedded after a failure
  int64_t invalid = 0;     // replies that were not valid JSON or broke the schema
  int64_t errors = 0;      // transport errors, timeouts, HTTP errors
  int64_t over_budget = 0; // questions not asked: the run's call or time budget was spent
  int64_t format_downgrades = 0;  // a server rejected response_format and was asked without it
  double seconds = 0;      // time spent waiting for the server
  Json to_json() const;
};

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  virtual std::string name() const = 0;
  // `job_key` groups calls per job for the call budget.
  virtual JobFacts extract(const JobText& job, const std::string& job_key) = 0;
  virtual std::optional<LearnedPattern> pattern(const std::vector<std::string>& sample, const std::string& job_key) = 0;
  virtual Diagnosis diagnose(const std::vector<std::string>& lines, const RunEvidence& run, const std::string& job_key) = 0;
  virtual AnalyzerStats stats() const { return {}; }
};

using AnalyzerRegistry = Registry<Analyzer, const AnalyzerOptions&>;
AnalyzerRegistry& analyzer_registry();

// Diagnoses a whole log: the Metric Tracker reads it first (did the run progress, did it stall),
// then the analyzer names the failure.
Diagnosis diagnose_log(Analyzer& analyzer, const std::vector<std::string>& lines, const std::string& job_key,
                       double stall_factor = 2.5);

}  // namespace mlsys::schedmate
