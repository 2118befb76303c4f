// The thread policy (core/process/thread_policy.hpp) with a fake environment and affinity mask,
// and set_thread_count reaching OpenMP and OpenBLAS alike.
#include <doctest/doctest.h>
#include <omp.h>

#include <map>
#include <string>

#include "core/process/system.hpp"
#include "core/process/thread_policy.hpp"
#include "core/util/error.hpp"

extern "C" int openblas_get_num_threads(void);

using namespace mlsys;

namespace {
// An environment holding exactly `vars`.
EnvLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}
}  // namespace

TEST_CASE("thread policy: run.threads, then OMP_NUM_THREADS, then SLURM_CPUS_PER_TASK, else the affinity mask") {
  const auto all = fake_env({{"OMP_NUM_THREADS", "3"}, {"SLURM_CPUS_PER_TASK", "5"}});
  ThreadChoice c = choose_threads(6, all, 64);
  CHECK(c.threads == 6);
  CHECK(c.from == "run.threads");
  c = choose_threads(0, all, 64);
  CHECK(c.threads == 3);
  CHECK(c.from == "OMP_NUM_THREADS");
  c = choose_threads(0, fake_env({{"SLURM_CPUS_PER_TASK", "5"}}), 64);
  CHECK(c.threads == 5);
  CHECK(c.from == "SLURM_CPUS_PER_TASK");
  c = choose_threads(0, fake_env({{"OMP_NUM_THREADS", ""}, {"SLURM_CPUS_PER_TASK", "2"}}), 64);
  CHECK(c.threads == 2);  // an empty variable is an unset one
  CHECK(c.from == "SLURM_CPUS_PER_TASK");
  c = choose_threads(0, fake_env({}), 12);
  CHECK(c.threads == 12);
  CHECK(c.from == "affinity");
  CHECK(c.capped.empty());
  // A nested OpenMP list: the outer level is this process's.
  CHECK(choose_threads(0, fake_env({{"OMP_NUM_THREADS", "4,2"}}), 64).threads == 4);
}

TEST_CASE("thread policy: the affinity mask bounds every request, and says which one it cut") {
  ThreadChoice c = choose_threads(8, fake_env({}), 1);
  CHECK(c.threads == 1);
  CHECK(c.from == "affinity");
  CHECK(c.capped == "run.threads=8");
  c = choose_threads(0, fake_env({{"SLURM_CPUS_PER_TASK", "128"}}), 2);
  CHECK(c.threads == 2);
  CHECK(c.capped == "SLURM_CPUS_PER_TASK=128");
  c = choose_threads(0, fake_env({{"OMP_NUM_THREADS", "2"}}), 2);
  CHECK(c.threads == 2);
  CHECK(c.from == "OMP_NUM_THREADS");  // equal to the bound: not cut
  CHECK(c.capped.empty());
  CHECK(choose_threads(0, fake_env({}), 0).threads == 1);
}

TEST_CASE("thread policy: a malformed count is an error naming the variable, not a silent default") {
  for (const char* bad : {"abc", "0", "-2", "3x", " 2"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(choose_threads(0, fake_env({{"OMP_NUM_THREADS", bad}}), 4),
                         doctest::Contains("OMP_NUM_THREADS='"), ConfigError);
  }
  CHECK_THROWS_WITH_AS(choose_threads(0, fake_env({{"SLURM_CPUS_PER_TASK", "two"}}), 4),
                       doctest::Contains("positive integer"), ConfigError);
  // run.threads decides before the environment is read, so a variable it overrides is not judged.
  CHECK(choose_threads(2, fake_env({{"OMP_NUM_THREADS", "abc"}}), 4).threads == 2);
}

TEST_CASE("thread policy: this process's affinity mask, and one count for OpenMP and OpenBLAS") {
  const int cpus = affinity_cpu_count();
  CHECK(cpus >= 1);
  CHECK(choose_threads(0, fake_env({}), cpus).threads == cpus);
  const int saved = thread_count();
  CHECK(set_thread_count(1) == 1);
  CHECK(omp_get_max_threads() == 1);
  CHECK(openblas_get_num_threads() == 1);
  CHECK(set_thread_count(0) == cpus);  // 0: the affinity mask, not the machine's CPU count
  CHECK(omp_get_max_threads() == cpus);
  set_thread_count(saved);
}
