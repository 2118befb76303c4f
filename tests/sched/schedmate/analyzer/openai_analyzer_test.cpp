#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>

#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/analyzer/json_schema.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/net/http_client.hpp"
#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"
#include "tests/sched/schedmate/analyzer/fake_llm_server.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;
using mlsys::schedmate::test::chat_reply;
using mlsys::schedmate::test::ollama_reply;
using mlsys::schedmate::test::FakeLlmServer;
using mlsys::schedmate::test::ScriptedReply;

namespace {
AnalyzerOptions options(const FakeLlmServer& s, double timeout = 2.0, int retries = 0) {
  AnalyzerOptions o;
  o.url = s.url();
  o.model = "test-model";
  o.timeout_s = timeout;
  o.retries = retries;
  return o;
}
const JobText kJob{"python main.py --batch_size 32", "", "", 1, 0, ""};
const char* kFacts = R"({"framework":"pytorch","task":"translation","model":"transformer","dataset":"multi30k","batch_size":32,"steps":1000,"epochs":null})";
}  // namespace

TEST_CASE("every analyzer backend is registered and constructible") {
  FakeLlmServer s;
  for (const auto* e : analyzer_registry().entries()) {
    CHECK_FALSE(e->description.empty());
    auto a = e->factory(options(s));
    CHECK(a->name() == e->name);
  }
  CHECK_THROWS_AS(analyzer_registry().create("gpt", AnalyzerOptions{}), ConfigError);
}

TEST_CASE("http client (libcurl): status, body, chunked replies, timeouts, refused connections, URL checks") {
  FakeLlmServer s;
  HttpOptions h;
  h.timeout_s = 2.0;
  s.push({200, "{\"ok\":true}", 0, false, false});
  auto r = http_post(s.url(), "{}", {{"X-Test", "1"}}, h);
  CHECK(r.status == 200);
  CHECK(r.body == "{\"ok\":true}");
  CHECK(s.requests().back() == "{}");
  s.push({200, "0123456789abcdef", 0, true, false});
  CHECK(http_post(s.url(), "{}", {}, h).body == "0123456789abcdef");
  s.push({500, "oops", 0, false, false});
  CHECK(http_post(s.url(), "{}", {}, h).status == 500);
  s.push({200, "late", 800, false, false});
  HttpOptions quick = h;
  quick.timeout_s = 0.2;
  CHECK_THROWS_AS(http_post(s.url(), "{}", {}, quick), HttpError);
  s.push({200, "", 0, false, true});
  CHECK_THROWS_AS(http_post(s.url(), "{}", {}, h), HttpError);
  CHECK_THROWS_AS(http_post("http://127.0.0.1:1/v1", "{}", {}, h), HttpError);
  // A reply larger than the cap is refused, whatever the server claims.
  HttpOptions small = h;
  small.max_reply_bytes = 1000;
  s.push({200, std::string(5000, 'x'), 0, true, false});
  CHECK_THROWS_AS(http_post(s.url(), "{}", {}, small), HttpError);
  // https goes through TLS: a plain-HTTP server on the port is a transport error, not a reply.
  s.push({200, "plain", 0, false, false});
  std::string https = s.url();
  https.replace(0, 4, "https");
  CHECK_THROWS_AS(http_post(https, "{}", {}, h), HttpError);
  CHECK_NOTHROW(check_http_url("https://api.example.com/v1/chat/completions"));
  CHECK_NOTHROW(check_http_url("http://localhost:8080/v1/chat/completions"));
  CHECK_THROWS_AS(check_http_url("ftp://host/"), ConfigError);
  CHECK_THROWS_AS(check_http_url("http://host:99999/"), ConfigError);
  CHECK_THROWS_AS(check_http_url("http://user:secret@host/"), ConfigError);
}

TEST_CASE("openai analyzer: a recorded reply is used, the request is schema-constrained, and cached") {
  FakeLlmServer s;
  mlsys::test::TempDir cache("llmcache");
  auto o = options(s);
  o.cache_dir = (cache / "c").string();
  s.push({200, chat_reply(kFacts), 0, false, false});
  auto a = analyzer_registry().create("openai", o);
  JobFacts f = a->extract(kJob, "job1");
  CHECK(f.source == "openai");
  CHECK(f.model == "transformer");
  CHECK(f.steps == 1000);
  REQUIRE(s.request_count() == 1);
  Json req = Json::parse(s.requests()[0]);
  CHECK(req.find("model")->as_string() == "test-model");
  CHECK(req.find("response_format")->find("type")->as_string() == "json_schema");
  // Same prompt again (even from a new analyzer): answered from the disk cache, no request.
  auto b = analyzer_registry().create("openai", o);
  JobFacts g = b->extract(kJob, "job2");
  CHECK(g.model == "transformer");
  CHECK(s.request_count() == 1);
  CHECK(b->stats().cache_hits == 1);
}

TEST_CASE("openai analyzer: malformed, schema-violating, slow and failing replies fall back to embedded") {
  // One analyzer per reply: three failed questions in a row open the circuit breaker.
  auto one = [](const ScriptedReply& reply) {
    FakeLlmServer s;
    auto a = analyzer_registry().create("openai", options(s, 0.3, 0));
    s.push(reply);
    JobFacts f = a->extract(kJob, "j");
    return std::make_pair(f, a->stats());
  };
  for (const auto& reply : {ScriptedReply{200, "this is not json", 0, false, false},
                            ScriptedReply{200, chat_reply("{\"framework\": \"pytorch\""), 0, false, false},
                            ScriptedReply{200, chat_reply("{\"framework\": 3}"), 0, false, false},
                            ScriptedReply{200, "{\"choices\":" + std::string(200, '[') + std::string(200, ']') + "}", 0, false, false}}) {
    auto [f, st] = one(reply);
    CHECK(f.source == "embedded");
    CHECK(st.invalid == 1);
    CHECK(st.fallbacks == 1);
    CHECK(f.batch_size == 32);  // the embedded answer is still a full answer
  }
  for (const auto& reply : {ScriptedReply{200, chat_reply(kFacts), 1000, false, false}, ScriptedReply{500, "{}", 0, false, false},
                            ScriptedReply{200, "", 0, false, true}}) {
    auto [f, st] = one(reply);
    CHECK(f.source == "embedded");
    CHECK(st.errors == 1);
    CHECK(st.fallbacks == 1);
  }
}

TEST_CASE("openai analyzer: a server that keeps failing is given up, the run's call and time budgets hold") {
  FakeLlmServer s;
  s.set_responder([](const std::string&) { return ScriptedReply{500, "{\"error\":\"boom\"}", 0, false, false}; });
  auto a = analyzer_registry().create("openai", options(s, 1.0, 2));
  for (int i = 0; i < 20; ++i) CHECK(a->extract(kJob, "job" + std::to_string(i)).source == "embedded");
  // 3 questions x 3 attempts, then the breaker: 17 questions never asked.
  CHECK(s.request_count() == 9);
  CHECK(a->stats().fallbacks == 20);
  CHECK(a->stats().over_budget == 17);

  FakeLlmServer silent;  // accepts and never answers
  silent.set_responder([](const std::string&) { return ScriptedReply{200, "", 60000, false, false}; });
  auto o = options(silent, 30.0, 5);
  o.max_total_s = 0.5;
  auto b = analyzer_registry().create("openai", o);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) CHECK(b->extract(kJob, "job" + std::to_string(i)).source == "embedded");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(took < 2.0);  // the run's time budget, not 10 x 6 x 30 s
  CHECK(b->stats().over_budget >= 9);

  FakeLlmServer good;
  good.set_responder([](const std::string&) { return ScriptedReply{200, chat_reply(kFacts), 0, false, false}; });
  auto oc = options(good);
  oc.max_calls = 2;
  auto c = analyzer_registry().create("openai", oc);
  for (int i = 0; i < 5; ++i) c->extract(kJob, "job" + std::to_string(i));
  CHECK(good.request_count() == 2);
  CHECK(c->stats().over_budget == 3);
}

TEST_CASE("openai analyzer: llama.cpp server, vLLM and Ollama reply shapes, and a server that rejects response_format") {
  // llama.cpp's server and vLLM answer in OpenAI's shape (with their own extra fields); Ollama's
  // OpenAI-compatible endpoint does too, and its own /api/chat has a top-level message.
  auto llama = [](const std::string&) {
    Json r = Json::parse(chat_reply(kFacts));
    r["timings"] = Json::parse("{\"prompt_n\": 12, \"predicted_n\": 40}");
    return ScriptedReply{200, r.dump(), 0, false, false};
  };
  auto vllm = [](const std::string&) {
    Json r = Json::parse(chat_reply(std::string("```json\n") + kFacts + "\n```"));
    r["prompt_logprobs"] = nullptr;
    return ScriptedReply{200, r.dump(), 0, false, false};
  };
  auto ollama = [](const std::string&) { return ScriptedReply{200, ollama_reply(kFacts), 0, false, false}; };
  struct Shape {
    std::string name, path;
    std::function<ScriptedReply(const std::string&)> responder;
  };
  const std::vector<Shape> shapes = {{"llama.cpp", "/v1/chat/completions", llama},
                                     {"vllm", "/v1/chat/completions", vllm},
                                     {"ollama", "/api/chat", ollama}};
  for (const auto& shape : shapes) {
    CAPTURE(shape.name);
    FakeLlmServer s;
    s.set_responder(shape.responder);
    auto o = options(s);
    o.url = s.url(shape.path);
    auto a = analyzer_registry().create("openai", o);
    JobFacts f = a->extract(kJob, "j");
    CHECK(f.source == "openai");
    CHECK(f.model == "transformer");
  }
  // A server without structured output (400 naming response_format, as llama.cpp and vLLM word
  // it): asked once more with the schema in the prompt, and without response_format from then on.
  FakeLlmServer strict;
  strict.set_responder([](const std::string& body) {
    if (body.find("response_format") != std::string::npos)
      return ScriptedReply{400, R"({"object":"error","message":"response_format is not supported","type":"BadRequestError","code":400})", 0, false, false};
    return ScriptedReply{200, chat_reply(kFacts), 0, false, false};
  });
  auto a = analyzer_registry().create("openai", options(strict));
  CHECK(a->extract(kJob, "j1").source == "openai");
  CHECK(a->extract(kJob, "j2").source == "openai");
  CHECK(a->stats().format_downgrades == 1);
  CHECK(strict.request_count() == 3);
  const auto reqs = strict.requests();
  CHECK(reqs[1].find("response_format") == std::string::npos);
  CHECK(reqs[1].find("JSON Schema") != std::string::npos);
}

TEST_CASE("openai analyzer: the audit log holds requests and replies with the API key redacted") {
  FakeLlmServer s;
  s.set_responder([](const std::string&) { return ScriptedReply{200, chat_reply(kFacts), 0, false, false}; });
  mlsys::test::TempDir dir("llmaudit");
  ::setenv("MLSYS_TEST_LLM_KEY", "sk-secret-123", 1);
  auto o = options(s);
  o.api_key_env = "MLSYS_TEST_LLM_KEY";
  o.audit_path = (dir / "audit.jsonl").string();
  auto a = analyzer_registry().create("openai", o);
  JobText leaky = kJob;
  leaky.command += " --token sk-secret-123";
  CHECK(a->extract(leaky, "j").source == "openai");
  const std::string audit = mlsys::test::read_text(dir / "audit.jsonl");
  CHECK(audit.find("sk-secret-123") == std::string::npos);
  CHECK(audit.find("<redacted>") != std::string::npos);
  Json rec = Json::parse(split_lines(audit)[0]);
  CHECK(rec.find("status")->as_int() == 200);
  CHECK(rec.find("request")->as_string().find("python main.py") != std::string::npos);
  ::unsetenv("MLSYS_TEST_LLM_KEY");
}

TEST_CASE("openai analyzer: retries recover, and the per-job call budget holds") {
  FakeLlmServer s;
  auto o = options(s, 2.0, 2);
  o.max_calls_per_job = 1;
  auto a = analyzer_registry().create("openai", o);
  s.push({503, "{}", 0, false, false});
  s.push({200, chat_reply("not json"), 0, false, false});
  s.push({200, chat_reply(kFacts), 0, false, false});
  JobFacts f = a->extract(kJob, "job");
  CHECK(f.source == "openai");
  CHECK(s.request_count() == 3);
  // Budget: one logical call per job; a second question for the same job stays local.
  Diagnosis d = a->diagnose({"torch.cuda.OutOfMemoryError: CUDA out of memory"}, {}, "job");
  CHECK(d.source == "embedded");
  CHECK(d.category == FailureCategory::GpuOom);
  CHECK(s.request_count() == 3);
}

TEST_CASE("openai analyzer: diagnosis and pattern replies are validated, actions stay in code") {
  FakeLlmServer s;
  auto a = analyzer_registry().create("openai", options(s));
  std::vector<std::string> log = {"step 1/10", "ModuleNotFoundError: No module named 'apex'"};
  s.push({200, chat_reply(R"({"category":"user/script_error","evidence_line":2})"), 0, false, false});
  Diagnosis d = a->diagnose(log, {}, "j");
  CHECK(d.source == "openai");
  CHECK(d.category == FailureCategory::ScriptError);
  CHECK(d.action == FailureAction::DoNotRetry);
  CHECK(d.evidence == log[1]);
  // An unknown category or an evidence line past the end is rejected.
  s.push({200, chat_reply(R"({"category":"user/cosmic_rays","evidence_line":2})"), 0, false, false});
  CHECK(a->diagnose(log, {}, "k").source == "embedded");
  s.push({200, chat_reply(R"({"category":"user/script_error","evidence_line":99})"), 0, false, false});
  CHECK(a->diagnose(log, {}, "l").source == "embedded");

  std::vector<std::string> sample;
  for (int i = 1; i <= 12; ++i) sample.push_back("[w0] chunk " + std::to_string(i) + " of 50 done");
  s.push({200, chat_reply(R"({"line_index":3,"counter_token":2,"total_token":4})"), 0, false, false});
  auto p = a->pattern(sample, "m");
  REQUIRE(p);
  CHECK(p->source == "openai");
  double done = 0, total = 0;
  CHECK(match_pattern(*p, "[w0] chunk 17 of 50 done", done, total));
  CHECK(done == 17);
  CHECK(total == 50);
  s.push({200, chat_reply(R"({"line_index":3,"counter_token":0,"total_token":-1})"), 0, false, false});
  auto q = a->pattern(sample, "n");  // token 0 is not a number: rejected, embedded learns it instead
  REQUIRE(q);
  CHECK(q->source == "embedded");
}

TEST_CASE("json schema subset") {
  Json schema = Json::parse(R"({"type":"object","required":["a"],"additionalProperties":false,
    "properties":{"a":{"type":"integer","minimum":0},"b":{"type":["string","null"],"enum":["x",null]},
    "c":{"type":"array","items":{"type":"number"}}}})");
  std::string why;
  CHECK(validate_json(Json::parse(R"({"a":1,"b":"x","c":[1,2.5]})"), schema, why));
  CHECK_FALSE(validate_json(Json::parse(R"({"b":"x"})"), schema, why));
  CHECK(why.find("missing required 'a'") != std::string::npos);
  CHECK_FALSE(validate_json(Json::parse(R"({"a":1.5})"), schema, why));
  CHECK_FALSE(validate_json(Json::parse(R"({"a":-1})"), schema, why));
  CHECK_FALSE(validate_json(Json::parse(R"({"a":1,"b":"y"})"), schema, why));
  CHECK_FALSE(validate_json(Json::parse(R"({"a":1,"z":0})"), schema, why));
  CHECK_FALSE(validate_json(Json::parse(R"({"a":1,"c":["q"]})"), schema, why));
  CHECK(why.find("$.c[0]") != std::string::npos);
}
