#pragma once
// Synthetic job logs for tests and demos: realistic progress lines of every supported format at a
// given throughput, with an optional injected failure of any category (and the hang that precedes
// a communication timeout). Every line carries a collector timestamp (`kubectl logs --timestamps`
// style), so the truth (when each step happened) is known exactly.
#include <cstdint>
#include <string>
#include <vector>

#include "sched/schedmate/failure/failure_types.hpp"
#include "sched/schedmate/tracker/progress_parsers.hpp"

namespace mlsys::schedmate {

struct LogSpec {
  LogFormat format = LogFormat::Tqdm;  // Learned = a custom format no built-in parser knows
  int64_t total_steps = 2000;          // optimizer steps of the whole run
  int epochs = 4;                      // for epoch-based formats (steps are split evenly)
  double steps_per_s = 2.0;
  double jitter = 0.1;                 // per-step time varies uniformly by +-jitter
  int log_every = 10;                  // steps between progress lines
  FailureCategory failure = FailureCategory::None;
  double fail_at = 0.5;                // fraction of the run at which the failure happens
  double hang_s = 1800;                // silence before a timeout message (NCCL watchdog)
  double start_time = 1714557600;      // 2024-05-01T10:00:00Z
  uint64_t seed = 1;
};

struct GeneratedLog {
  std::vector<std::string> lines;
  std::vector<double> times;          // per line (seconds since 1970)
  std::vector<int64_t> step_at_line;  // steps done when the line was written
  double first_step_t = 0;            // when step 0 started
  double end_t = 0;                   // when the full run would end (no failure) / failure time
  double full_run_end_t = 0;          // when the whole run would have ended without failure
  FailureCategory label = FailureCategory::None;
  int64_t failure_line = -1;          // 0-based index of the first failure line
  std::string text() const;
};

GeneratedLog generate_log(const LogSpec& spec);

// Formats the generator can write (all known ones plus the custom "learned" format).
const std::vector<LogFormat>& generated_formats();
LogFormat parse_format(const std::string& name);

// The failure lines for one category (a randomly chosen variant). Exposed for tests.
std::vector<std::string> failure_block(FailureCategory c, uint64_t seed);

}  // namespace mlsys::schedmate
