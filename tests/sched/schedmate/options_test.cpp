#include <doctest/doctest.h>

#include <string>

#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "sched/schedmate/analyzer/chat_reply.hpp"
#include "sched/schedmate/jobs/job_source.hpp"
#include "sched/schedmate/modes/modes.hpp"
#include "sched/schedmate/options.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;
using mlsys::test::TempDir;
using mlsys::test::thrown_message;
using mlsys::test::write_text;

namespace {

// `depth` nested JSON arrays around 1: "[[1]]" for 2.
std::string nested(int depth) { return std::string(static_cast<size_t>(depth), '[') + "1" + std::string(static_cast<size_t>(depth), ']'); }

// A chat-completions reply whose answer is nested `depth` deep (the object plus the arrays).
std::string reply_with_answer_depth(int depth) {
  const std::string answer = "{\\\"a\\\": " + nested(depth - 1) + "}";
  return R"({"choices": [{"message": {"content": ")" + answer + R"("}}]})";
}

// A job spec line nested `depth` deep (the object plus the arrays).
std::string job_line(int depth) { return R"({"id": "j1", "command": "python train.py", "x": )" + nested(depth - 1) + "}\n"; }

}  // namespace

TEST_CASE("schedmate.limits.max_json_depth, set in a config file, is the limit of both of its readers") {
  TempDir dir("schedmate_options");
  write_text(dir / "c.yaml", "schedmate:\n  limits:\n    max_json_depth: 6\n");
  const auto cfg = config::resolve({&schedmate_section()}, {(dir / "c.yaml").string()}, {});
  const SchedmateOptions& o = cfg.get(schedmate_section());
  const AnalyzerOptions a = analyzer_options(o, "");
  CHECK(a.max_json_depth == 6);
  // The analyzer's reply parser: 6 levels pass, 7 do not.
  CHECK_NOTHROW(chat_answer(reply_with_answer_depth(6), a.max_json_depth));
  CHECK_THROWS_AS(chat_answer(reply_with_answer_depth(7), a.max_json_depth), Error);
  // The job reader: the same limit.
  CHECK(parse_jobs_jsonl(job_line(6), (dir / "jobs.jsonl").string(), o.limits, dir.path().string()).size() == 1);
  CHECK(thrown_message<InputError>([&] { parse_jobs_jsonl(job_line(7), (dir / "jobs.jsonl").string(), o.limits, dir.path().string()); })
            .find("schedmate.limits.max_json_depth") != std::string::npos);
  // Without the file both readers take the one declared default, which accepts depth 7.
  const auto defaults = config::resolve({&schedmate_section()}, {}, {});
  const SchedmateOptions& d = defaults.get(schedmate_section());
  CHECK(analyzer_options(d, "").max_json_depth == d.limits.max_json_depth);
  CHECK(d.limits.max_json_depth > 7);
  CHECK_NOTHROW(chat_answer(reply_with_answer_depth(7), analyzer_options(d, "").max_json_depth));
  CHECK(parse_jobs_jsonl(job_line(7), (dir / "jobs.jsonl").string(), d.limits, dir.path().string()).size() == 1);
}

TEST_CASE("schedmate's openai, limits and advisor keys reach the structs their readers take") {
  const auto cfg = config::resolve({&schedmate_section()}, {},
                                   {"schedmate.openai.max_calls=7", "schedmate.openai.model=m1", "schedmate.openai.audit=true",
                                    "schedmate.limits.max_line_bytes=100", "schedmate.k=9", "schedmate.min_similarity=0.25"});
  const SchedmateOptions& o = cfg.get(schedmate_section());
  const AnalyzerOptions a = analyzer_options(o, "/run/llm_audit.jsonl");
  CHECK(a.max_calls == 7);
  CHECK(a.model == "m1");
  CHECK(a.audit_path == "/run/llm_audit.jsonl");
  CHECK(o.limits.max_line_bytes == 100);
  CHECK(o.advisor.k == 9);
  CHECK(o.advisor.min_similarity == 0.25);
  // No audit unless asked for.
  const auto plain = config::resolve({&schedmate_section()}, {}, {});
  CHECK(analyzer_options(plain.get(schedmate_section()), "/run/llm_audit.jsonl").audit_path.empty());
  // The nested keys keep their bounds.
  CHECK_THROWS_AS(config::resolve({&schedmate_section()}, {}, {"schedmate.limits.max_json_depth=2"}), ConfigError);
  CHECK_THROWS_AS(config::resolve({&schedmate_section()}, {}, {"schedmate.k=0"}), ConfigError);
}
