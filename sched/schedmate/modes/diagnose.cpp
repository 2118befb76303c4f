// diagnose: failure category, evidence line and recommended action per log.
#include "core/util/strings.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

void run_diagnose(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto analyzer = make_analyzer(ctx, o);
  Table t({"log", "category", "action", "evidence_line", "evidence", "source"});
  std::string jsonl;
  std::map<std::string, int> counts;
  LogReadStats stats;
  auto add = [&](const std::string& name, const std::vector<std::string>& lines) {
    Diagnosis d = diagnose_log(*analyzer, lines, name, o.stall_factor);
    t.add_row({name, std::string(to_string(d.category)), std::string(to_string(d.action)), d.evidence_line, d.evidence, d.source});
    Json j = d.to_json();
    j["log"] = valid_utf8(name);
    jsonl += j.dump() + "\n";
    ++counts[to_string(d.category)];
  };
  auto files = input_log_files(o);
  if (files.empty()) {
    auto corpus = generate_corpus(1, o.gen_steps, ctx.seed());
    for (const auto& c : corpus)
      if (c.spec.format == LogFormat::Tqdm) add(c.name, c.log.lines);
  } else {
    for (const auto& f : files) add(f, read_log_lines(f, o, &stats));
  }
  ctx.write_table("diagnoses.csv", t);
  ctx.write_text("diagnoses.jsonl", jsonl);
  Json c = Json::object();
  for (auto& [k, v] : counts) c[k] = v;
  ctx.summary()["categories"] = c;
  ctx.summary()["inputs"] = stats.to_json();
  report_analyzer(ctx, *analyzer);
  std::vector<std::string> parts;
  for (auto& [k, v] : counts) parts.push_back(k + " " + std::to_string(v));
  ctx.say("diagnosed " + std::to_string(t.rows()) + " logs: " + join(parts, ", "));
}

const bool registered = add_command_mode("schedmate", {"diagnose", "failure category, evidence lines and action for job logs", run_diagnose});

}  // namespace mlsys::schedmate
