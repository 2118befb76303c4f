#pragma once
// The generated evaluation corpus: every format x every failure category, a few runs each with
// varied throughputs, failure points and seeds.
#include <string>
#include <vector>

#include "sched/schedmate/generator/log_generator.hpp"

namespace mlsys::schedmate {

struct LogCase {
  std::string name;  // "<format>__<category>__<i>"
  LogSpec spec;
  GeneratedLog log;
};

std::vector<LogCase> generate_corpus(int per_case, int64_t steps, uint64_t seed);

}  // namespace mlsys::schedmate
