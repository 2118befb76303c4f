// genlogs: writes the generated log corpus (every format x failure category) with labels.
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/modes/modes.hpp"

namespace mlsys::schedmate {

void run_genlogs(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto corpus = generate_corpus(o.gen_logs_per_case, o.gen_steps, ctx.seed());
  Table labels({"file", "label", "format", "failure_line", "steps_per_s", "total_steps"});
  for (const auto& c : corpus) {
    ctx.write_text("logs/" + c.name + ".log", c.log.text());
    labels.add_row({c.name + ".log", std::string(to_string(c.log.label)), std::string(to_string(c.spec.format)),
                    c.log.failure_line + 1, c.spec.steps_per_s, c.spec.total_steps});
  }
  ctx.write_table("logs/labels.csv", labels);
  ctx.summary()["logs"] = static_cast<int64_t>(corpus.size());
  ctx.say("wrote " + std::to_string(corpus.size()) + " generated logs to " + ctx.path("logs").string());
}

const bool registered = add_command_mode("schedmate", {"genlogs", "write the generated log corpus with its labels", run_genlogs});

}  // namespace mlsys::schedmate
