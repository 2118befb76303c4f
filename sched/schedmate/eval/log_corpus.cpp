#include "sched/schedmate/eval/log_corpus.hpp"

#include "core/util/random.hpp"

namespace mlsys::schedmate {

std::vector<LogCase> generate_corpus(int per_case, int64_t steps, uint64_t seed) {
  Rng rng(seed);
  std::vector<LogCase> out;
  for (LogFormat f : generated_formats()) {
    for (FailureCategory c : all_categories()) {
      for (int i = 0; i < per_case; ++i) {
        LogCase lc;
        lc.spec.format = f;
        lc.spec.failure = c;
        lc.spec.total_steps = steps;
        lc.spec.steps_per_s = 0.5 + 9.5 * rng.uniform();
        lc.spec.jitter = 0.05 + 0.15 * rng.uniform();
        lc.spec.fail_at = 0.2 + 0.7 * rng.uniform();
        lc.spec.log_every = 5 + static_cast<int>(rng.below(16));
        lc.spec.seed = rng.next();
        std::string cat = to_string(c);
        for (auto& ch : cat)
          if (ch == '/') ch = '-';
        lc.name = std::string(to_string(f)) + "__" + cat + "__" + std::to_string(i);
        lc.log = generate_log(lc.spec);
        out.push_back(std::move(lc));
      }
    }
  }
  return out;
}

}  // namespace mlsys::schedmate
