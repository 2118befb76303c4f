// Fuzz target: SchedMate's jobs JSONL (sched/schedmate/jobs/job_source.hpp: `schedmate advise
// --jobs jobs.jsonl`) from arbitrary bytes, through the input limits. Bad input is an
// mlsys::Error naming the file and line; anything else is a finding.
#include <string>

#include "core/util/error.hpp"
#include "sched/schedmate/jobs/job_source.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(jobs_jsonl) {
  try {
    (void)mlsys::schedmate::parse_jobs_jsonl(std::string(reinterpret_cast<const char*>(data), size), "/tmp/fuzz.jsonl");
  } catch (const mlsys::Error&) {
  }
  return 0;
}
