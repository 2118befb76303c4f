#include "core/process/thread_policy.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>
#include <thread>

#include "core/util/error.hpp"

namespace mlsys {

namespace {

// A positive count from an environment variable; 0 when unset or empty.
int env_count(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return 0;
  std::string_view text(v);
  // OMP_NUM_THREADS may list one count per nesting level ("4,2"); the outer level is this run's.
  std::string_view first = text.substr(0, text.find(','));
  int n = 0;
  auto [end, ec] = std::from_chars(first.data(), first.data() + first.size(), n);
  if (ec != std::errc() || end != first.data() + first.size() || n <= 0)
    throw ConfigError(std::string(name) + "='" + v + "' is not a thread count: set it to a positive integer, or unset it");
  return n;
}

}  // namespace

ThreadChoice choose_threads(int configured, const EnvLookup& env, int affinity_cpus) {
  const int bound = std::max(1, affinity_cpus);
  ThreadChoice c;
  int asked = 0;
  if (configured > 0) {
    asked = configured;
    c.from = "run.threads";
  } else {
    for (const char* name : {"OMP_NUM_THREADS", "SLURM_CPUS_PER_TASK"}) {
      if ((asked = env_count(env, name)) > 0) {
        c.from = name;
        break;
      }
    }
  }
  if (asked == 0) {
    c.threads = bound;
    return c;
  }
  if (asked > bound) {
    c.capped = c.from + "=" + std::to_string(asked);
    c.from = "affinity";
  }
  c.threads = std::min(asked, bound);
  return c;
}

ThreadChoice choose_threads(int configured) {
  return choose_threads(configured, [](const char* name) { return std::getenv(name); }, affinity_cpu_count());
}

int affinity_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace mlsys
