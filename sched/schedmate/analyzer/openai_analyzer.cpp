// `openai` analyzer: asks an OpenAI-compatible chat-completions server (llama.cpp server, vLLM,
// Ollama, OpenAI) over HTTP(S) (net/http_client.hpp, libcurl) for JSON that matches a schema,
// validates every reply, caches replies on disk by a hash of the prompt, and falls back to the
// embedded analyzer on any failure (counted). Bounded: a call budget per job and per run, a time
// budget per run, a circuit breaker after consecutive failed questions, a cap on the reply's size
// and nesting. A server that rejects `response_format` is asked again with the schema in the
// prompt. Decisions that matter for safety stay in code: the action for a failure category always
// comes from action_for(), so no reply can make SchedMate retry a user error.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include "core/log/log.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/analyzer/chat_reply.hpp"
#include "sched/schedmate/analyzer/json_schema.hpp"
#include "sched/schedmate/failure/failure_types.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "sched/schedmate/net/http_client.hpp"

namespace mlsys::schedmate {
namespace {

constexpr size_t kSampleLines = 24;
constexpr size_t kTailLines = 60;

std::string hash_hex(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Json schema_facts() {
  Json str = Json::object();
  str["type"] = "string";
  Json num = Json::object();
  num["type"] = Json(Json::Array{"number", "null"});
  Json props = Json::object();
  for (const char* k : {"framework", "task", "model", "dataset", "precision"}) props[k] = str;
  for (const char* k : {"batch_size", "steps", "epochs", "tensor_parallel", "pipeline_parallel"}) props[k] = num;
  Json s = Json::object();
  s["type"] = "object";
  s["properties"] = props;
  s["required"] = Json(Json::Array{"framework", "task", "model", "dataset", "batch_size", "steps", "epochs"});
  return s;
}

Json schema_pattern() {
  Json integer = Json::object();
  integer["type"] = "integer";
  integer["minimum"] = -1;
  Json props = Json::object();
  props["line_index"] = integer;
  props["counter_token"] = integer;
  props["total_token"] = integer;
  Json s = Json::object();
  s["type"] = "object";
  s["properties"] = props;
  s["required"] = Json(Json::Array{"line_index", "counter_token", "total_token"});
  return s;
}

Json schema_diagnosis() {
  Json cats = Json::array();
  for (auto c : all_categories()) cats.push_back(to_string(c));
  Json cat = Json::object();
  cat["type"] = "string";
  cat["enum"] = cats;
  Json line = Json::object();
  line["type"] = "integer";
  line["minimum"] = 0;
  Json props = Json::object();
  props["category"] = cat;
  props["evidence_line"] = line;
  Json s = Json::object();
  s["type"] = "object";
  s["properties"] = props;
  s["required"] = Json(Json::Array{"category", "evidence_line"});
  return s;
}

class OpenAiAnalyzer final : public Analyzer {
 public:
  explicit OpenAiAnalyzer(const AnalyzerOptions& o)
      : format_(o.response_format), opt_(o), embedded_(analyzer_registry().create("embedded", o)) {
    check_http_url(o.url);  // fail early on an unsupported URL
    if (format_ != "json_schema" && format_ != "json_object" && format_ != "none")
      throw ConfigError("schedmate.openai.response_format '" + format_ + "': expected json_schema, json_object or none");
    if (!o.api_key_env.empty()) {
      const char* key = std::getenv(o.api_key_env.c_str());
      if (!key) throw ConfigError("schedmate.openai.api_key_env names " + o.api_key_env + ", which is not set");
      api_key_ = key;
    }
  }
  std::string name() const override { return "openai"; }
  AnalyzerStats stats() const override { return stats_; }

  JobFacts extract(const JobText& job, const std::string& key) override {
    JobFacts base = embedded_->extract(job, key);
    std::string prompt =
        "Extract facts about this deep-learning training job. Use lower-case names; null when not stated.\n"
        "Command: " + job.command + "\nJob name: " + job.name + "\nGPUs: " + std::to_string(job.num_gpus) +
        (job.script.empty() ? std::string() : "\nEntry script:\n" + job.script.substr(0, 4000));
    auto reply = ask(key, "job_facts", prompt, schema_facts(), nullptr);
    if (!reply) return base;
    JobFacts f = facts_from_json(*reply, base);
    f.source = "openai";
    return f;
  }

  std::optional<LearnedPattern> pattern(const std::vector<std::string>& sample, const std::string& key) override {
    std::string prompt =
        "These are the first lines of a training log in an unknown format. Pick the index (0-based) of one line "
        "that reports training progress, and the 0-based positions of its whitespace-separated tokens holding the "
        "step counter and the total step count (-1 when absent).\n";
    const size_t n = std::min(sample.size(), kSampleLines);
    for (size_t i = 0; i < n; ++i) prompt += std::to_string(i) + ": " + sample[i] + "\n";
    auto check = [&](const Json& j, std::string& why) {
      int idx = static_cast<int>(j.find("line_index")->as_int());
      if (idx < 0 || static_cast<size_t>(idx) >= n) {
        why = "line_index out of range";
        return false;
      }
      auto p = pattern_from_positions({sample[static_cast<size_t>(idx)]}, static_cast<int>(j.find("counter_token")->as_int()),
                                      static_cast<int>(j.find("total_token")->as_int()));
      // The counter must match several lines and rise across them.
      int matches = 0, rises = 0;
      double d = 0, t = 0, prev = NAN;
      if (p)
        for (const auto& l : sample)
          if (match_pattern(*p, l, d, t)) {
            ++matches;
            if (d < prev) rises = -1000;
            if (d > prev) ++rises;
            prev = d;
          }
      if (matches < 3 || rises < 2) {
        why = "proposed pattern does not count progress over the sample lines";
        return false;
      }
      return true;
    };
    auto reply = ask(key, "progress_pattern", prompt, schema_pattern(), check);
    if (!reply) return embedded_->pattern(sample, key);
    auto p = pattern_from_positions({sample[static_cast<size_t>(reply->find("line_index")->as_int())]},
                                    static_cast<int>(reply->find("counter_token")->as_int()),
                                    static_cast<int>(reply->find("total_token")->as_int()));
    p->source = "openai";
    return p;
  }

  Diagnosis diagnose(const std::vector<std::string>& lines, const RunEvidence& run, const std::string& key) override {
    const size_t first = lines.size() > kTailLines ? lines.size() - kTailLines : 0;
    std::string prompt = "Classify why this training job failed (or `none`). Categories: ";
    for (auto c : all_categories()) prompt += std::string(to_string(c)) + " ";
    prompt += "\nGive the 1-based number of the line that is the evidence (0 for none).";
    if (run.progressed) prompt += "\nThe job made training progress before these lines.";
    if (run.stalled) prompt += "\nThe job stopped making progress before these lines ended.";
    prompt += "\nLog (line numbers first):\n";
    for (size_t i = first; i < lines.size(); ++i) prompt += std::to_string(i + 1) + ": " + lines[i].substr(0, 400) + "\n";
    auto check = [&](const Json& j, std::string& why) {
      int64_t l = j.find("evidence_line")->as_int();
      if (l > static_cast<int64_t>(lines.size())) {
        why = "evidence_line beyond the log";
        return false;
      }
      return true;
    };
    auto reply = ask(key, "failure_diagnosis", prompt, schema_diagnosis(), check);
    if (!reply) return embedded_->diagnose(lines, run, key);
    Diagnosis d;
    d.category = parse_category(reply->find("category")->as_string());
    d.evidence_line = reply->find("evidence_line")->as_int();
    if (d.evidence_line > 0) d.evidence = lines[static_cast<size_t>(d.evidence_line - 1)].substr(0, 300);
    d.source = "openai";
    finalize_diagnosis(d);
    return d;
  }

 private:
  using Check = std::function<bool(const Json&, std::string&)>;

  // One schema-constrained question; nullopt means "use embedded" (already counted).
  std::optional<Json> ask(const std::string& job_key, const std::string& schema_name, const std::string& prompt,
                          const Json& schema, const Check& check) {
    const std::string hash = hash_hex(opt_.model + "\n" + schema_name + "\n" + prompt);
    const std::filesystem::path cache_file =
        opt_.cache_dir.empty() ? std::filesystem::path() : std::filesystem::path(opt_.cache_dir) / (hash + ".json");
    if (!cache_file.empty() && std::filesystem::is_regular_file(cache_file)) {
      try {
        Json cached = Json::parse(read_regular_file(cache_file, 1 << 20, "the cache entry's size"));
        std::string why;
        if (validate_json(cached, schema, why) && (!check || check(cached, why))) {
          ++stats_.cache_hits;
          return cached;
        }
      } catch (const std::exception&) {
        // A damaged cache entry is ignored and rewritten.
      }
    }
    if (calls_per_job_[job_key] >= opt_.max_calls_per_job) {
      ++stats_.fallbacks;
      return std::nullopt;
    }
    if (broken_ || stats_.calls >= opt_.max_calls || spent_s_ >= opt_.max_total_s) {
      ++stats_.over_budget;
      ++stats_.fallbacks;
      return std::nullopt;
    }
    ++calls_per_job_[job_key];
    std::vector<std::pair<std::string, std::string>> headers;
    if (!api_key_.empty()) headers.push_back({"Authorization", "Bearer " + api_key_});
    for (int attempt = 0; attempt <= opt_.retries; ++attempt) {
      if (stats_.calls >= opt_.max_calls || spent_s_ >= opt_.max_total_s) {
        ++stats_.over_budget;
        break;
      }
      const auto t0 = std::chrono::steady_clock::now();
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(std::min<int64_t>(50 << std::min(attempt, 5),
                                                                                             static_cast<int64_t>(remaining_s() * 1000))));
      const std::string payload = request_body(prompt, schema_name, schema);
      ++stats_.calls;
      std::string why;
      HttpResponse r;
      bool transport_ok = false;
      try {
        HttpOptions h;
        h.timeout_s = std::max(0.001, std::min(opt_.timeout_s, remaining_s()));
        h.proxy = opt_.proxy;
        h.ca_file = opt_.ca_file;
        r = http_post(opt_.url, payload, headers, h);
        transport_ok = true;
      } catch (const HttpError& e) {
        ++stats_.errors;
        audit(payload, 0, "", e.what());
        log::debug("openai analyzer: {}", e.what());
      }
      spent_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!transport_ok) continue;
      audit(payload, r.status, r.body, "");
      if (r.status != 200) {
        ++stats_.errors;
        log::debug("openai analyzer: HTTP {} from {}", r.status, opt_.url);
        // A server without structured output rejects response_format: ask again with the schema in
        // the prompt (once per run; not counted against the retries).
        if ((r.status == 400 || r.status == 422) && format_ != "none" && mentions_response_format(r.body)) {
          format_ = "none";
          ++stats_.format_downgrades;
          --attempt;
        }
        continue;
      }
      try {
        Json answer = chat_answer(r.body, opt_.max_json_depth);
        if (!validate_json(answer, schema, why) || (check && !check(answer, why))) {
          ++stats_.invalid;
          log::debug("openai analyzer: reply breaks the schema: {}", why);
          continue;
        }
        if (!cache_file.empty()) {
          ensure_dir(cache_file.parent_path());
          write_file_atomic(cache_file, answer.dump());
        }
        failed_in_a_row_ = 0;
        return answer;
      } catch (const std::exception& e) {
        ++stats_.invalid;  // malformed JSON in the reply or its content
        log::debug("openai analyzer: bad reply: {}", e.what());
      }
    }
    ++stats_.fallbacks;
    // A server that keeps failing is not asked again this run (no multiplying of run time).
    if (++failed_in_a_row_ >= kBreakerAfter) broken_ = true;
    return std::nullopt;
  }

  double remaining_s() const { return std::max(0.0, opt_.max_total_s - spent_s_); }

  std::string request_body(const std::string& prompt, const std::string& schema_name, const Json& schema) const {
    Json body = Json::object();
    body["model"] = opt_.model;
    body["temperature"] = 0;
    body["stream"] = false;
    Json sys = Json::object();
    sys["role"] = "system";
    sys["content"] = "You analyse GPU cluster jobs. Answer with one JSON object matching the given schema, nothing else.";
    Json user = Json::object();
    user["role"] = "user";
    user["content"] = format_ == "json_schema" ? prompt : prompt + "\nAnswer with one JSON object matching this JSON Schema: " + schema.dump();
    body["messages"] = Json(Json::Array{sys, user});
    if (format_ == "json_schema") {
      Json js = Json::object();
      js["name"] = schema_name;
      js["strict"] = true;
      js["schema"] = schema;
      Json rf = Json::object();
      rf["type"] = "json_schema";
      rf["json_schema"] = js;
      body["response_format"] = rf;
    } else if (format_ == "json_object") {
      Json rf = Json::object();
      rf["type"] = "json_object";
      body["response_format"] = rf;
    }
    return body.dump();
  }

  static bool mentions_response_format(const std::string& body) {
    std::string low = body.substr(0, 4096);
    for (auto& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return low.find("response_format") != std::string::npos || low.find("json_schema") != std::string::npos ||
           low.find("response format") != std::string::npos;
  }

  // One JSONL record per request when auditing: what was sent and what came back, the key redacted.
  void audit(const std::string& payload, int status, const std::string& reply, const std::string& error) const {
    if (opt_.audit_path.empty()) return;
    Json j = Json::object();
    j["url"] = opt_.url;
    j["authorization"] = api_key_.empty() ? "none" : "Bearer <redacted>";
    j["request"] = valid_utf8(redact(payload));
    j["status"] = status;
    j["reply"] = valid_utf8(redact(reply.substr(0, 1 << 16)));
    if (!error.empty()) j["error"] = valid_utf8(redact(error));
    std::ofstream out(opt_.audit_path, std::ios::app);
    out << j.dump() << "\n";
  }

  std::string redact(std::string s) const {
    if (api_key_.empty()) return s;
    for (size_t p = s.find(api_key_); p != std::string::npos; p = s.find(api_key_, p)) s.replace(p, api_key_.size(), "<redacted>");
    return s;
  }

  static constexpr int kBreakerAfter = 3;  // failed questions in a row before the server is given up
  std::string format_;
  double spent_s_ = 0;
  int failed_in_a_row_ = 0;
  bool broken_ = false;

  AnalyzerOptions opt_;
  std::unique_ptr<Analyzer> embedded_;
  std::string api_key_;
  AnalyzerStats stats_;
  std::map<std::string, int> calls_per_job_;
};

const bool registered = analyzer_registry().add(
    "openai", "OpenAI-compatible chat-completions server (schema-constrained JSON, cached, falls back to embedded)",
    [](const AnalyzerOptions& o) { return std::make_unique<OpenAiAnalyzer>(o); });

}  // namespace
}  // namespace mlsys::schedmate
