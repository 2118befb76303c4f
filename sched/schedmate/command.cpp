#include "sched/schedmate/command.hpp"

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"
#include "sched/schedmate/modes/modes.hpp"
#include "sched/schedmate/options.hpp"

namespace mlsys::schedmate {

const CommandSpec& schedmate_command() {
  static const CommandSpec spec{
      "schedmate",
      "SchedMate: duration advice, live progress and failure diagnosis from job commands and logs",
      "examples:\n"
      "  mlsys schedmate                                   # demo on generated jobs and logs\n"
      "  mlsys schedmate advise --jobs TRACE_OR_JOBS.jsonl # predictions + hints.csv for simulate\n"
      "  mlsys schedmate track --log job.log --follow      # live progress of a growing log\n"
      "  mlsys schedmate diagnose --log failed.log         # category, evidence, action\n"
      "  mlsys schedmate evaluate configs/repro/schedmate/duration_accuracy.yaml\n"
      "  mlsys schedmate genlogs                           # write the generated log corpus\n",
      {&run_section(), &schedmate_section()},
      command_modes("schedmate"),
      "schedmate.mode",
      {{"jobs", "schedmate.jobs", true, "Jobs: a trace or a JSONL of job specs"},
       {"log", "schedmate.log", true, "A job log file or a folder of logs"},
       {"follow", "schedmate.follow", false, "Follow the log as it grows"},
       {"analyzer", "schedmate.analyzer", true, "Analyzer backend (embedded, openai)"}},
      {}};
  return spec;
}

}  // namespace mlsys::schedmate
