#include <doctest/doctest.h>

#include <filesystem>

#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/analyzer/json_schema.hpp"
#include "sched/schedmate/net/http_client.hpp"
#include "tests/common/test_util.hpp"
#include "tests/sched/schedmate/analyzer/fake_llm_server.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;
using mlsys::schedmate::test::chat_reply;
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
const JobText kJob{"python main.py --batch_size 32", "", "", 1, 0};
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

TEST_CASE("http client: status, body, chunked replies, timeouts, refused connections, URL checks") {
  FakeLlmServer s;
  s.push({200, "{\"ok\":true}", 0, false, false});
  auto r = http_post(s.url(), "{}", {{"X-Test", "1"}}, 2.0);
  CHECK(r.status == 200);
  CHECK(r.body == "{\"ok\":true}");
  s.push({200, "0123456789abcdef", 0, true, false});
  CHECK(http_post(s.url(), "{}", {}, 2.0).body == "0123456789abcdef");
  s.push({500, "oops", 0, false, false});
  CHECK(http_post(s.url(), "{}", {}, 2.0).status == 500);
  s.push({200, "late", 800, false, false});
  CHECK_THROWS_AS(http_post(s.url(), "{}", {}, 0.2), HttpError);
  s.push({200, "", 0, false, true});
  CHECK_THROWS_AS(http_post(s.url(), "{}", {}, 2.0), HttpError);
  CHECK_THROWS_AS(http_post("http://127.0.0.1:1/v1", "{}", {}, 1.0), HttpError);
  CHECK_THROWS_AS(parse_http_url("https://api.example.com/v1"), ConfigError);
  CHECK_THROWS_AS(parse_http_url("http://host:99999/"), ConfigError);
  auto u = parse_http_url("http://localhost:8080/v1/chat/completions");
  CHECK(u.host == "localhost");
  CHECK(u.port == 8080);
  CHECK(u.path == "/v1/chat/completions");
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
  FakeLlmServer s;
  auto a = analyzer_registry().create("openai", options(s, 0.3, 0));
  s.push({200, "this is not json", 0, false, false});
  CHECK(a->extract(kJob, "j1").source == "embedded");
  s.push({200, chat_reply("{\"framework\": \"pytorch\""), 0, false, false});  // content is malformed JSON
  CHECK(a->extract(kJob, "j2").source == "embedded");
  s.push({200, chat_reply("{\"framework\": 3}"), 0, false, false});  // breaks the schema
  CHECK(a->extract(kJob, "j3").source == "embedded");
  s.push({200, chat_reply(kFacts), 1000, false, false});  // too slow
  CHECK(a->extract(kJob, "j4").source == "embedded");
  s.push({500, "{}", 0, false, false});
  CHECK(a->extract(kJob, "j5").source == "embedded");
  AnalyzerStats st = a->stats();
  CHECK(st.fallbacks == 5);
  CHECK(st.invalid == 3);
  CHECK(st.errors == 2);
  // The embedded answer is still a full answer.
  CHECK(a->extract(kJob, "j6").batch_size == 32);
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
