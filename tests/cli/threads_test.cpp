// The thread policy through the real binary (core/process/thread_policy.hpp): OMP_NUM_THREADS,
// an affinity mask (taskset), SLURM_CPUS_PER_TASK and run.threads each decide the run's thread
// count, and summary.json records the count and the rule that chose it.
#include <doctest/doctest.h>

#include <string>

#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_shell;

namespace {
const std::string kBin = MLSYS_BINARY;

struct Threads {
  int run = 0, resources = 0;
  std::string from, capped;
};

// A tiny simulation under `prefix` (variables, taskset) with the thread variables of the test's
// own environment removed first.
Threads threads_of(const mlsys::test::TempDir& dir, const std::string& prefix, const std::string& args = "") {
  const std::string out = (dir / "run").string();
  auto r = run_shell("env -u OMP_NUM_THREADS -u SLURM_CPUS_PER_TASK " + prefix + " " + kBin +
                     " simulate -q --set tracegen.jobs=20 --set run.progress=off --overwrite --out '" + out + "' " +
                     args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  auto s = mlsys::Json::parse(mlsys::test::read_text(dir / "run/summary.json"));
  const auto& run = *s.find("run");
  Threads t;
  t.run = static_cast<int>(run.find("threads")->as_int());
  t.resources = static_cast<int>(s.find("resources")->find("threads")->as_int());
  REQUIRE_MESSAGE(run.contains("threads_from"), "summary.json run record names no thread source");
  t.from = run.find("threads_from")->as_string();
  if (const auto* c = run.find("threads_capped")) t.capped = c->as_string();
  return t;
}

int cpus_here() { return std::stoi(std::string(mlsys::trim(run_shell("nproc").out))); }
}  // namespace

TEST_CASE("cli threads: OMP_NUM_THREADS=1 gives 1 thread, recorded with its source") {
  mlsys::test::TempDir dir("threads");
  Threads t = threads_of(dir, "OMP_NUM_THREADS=1");
  CHECK(t.run == 1);
  CHECK(t.resources == 1);
  CHECK(t.from == "OMP_NUM_THREADS");
  // Without any request: every CPU this process may use.
  t = threads_of(dir, "");
  CHECK(t.run == cpus_here());
  CHECK(t.from == "affinity");
}

TEST_CASE("cli threads: SLURM_CPUS_PER_TASK=1 gives 1 thread") {
  mlsys::test::TempDir dir("threads");
  Threads t = threads_of(dir, "SLURM_CPUS_PER_TASK=1");
  CHECK(t.run == 1);
  CHECK(t.from == "SLURM_CPUS_PER_TASK");
}

TEST_CASE("cli threads: --set run.threads wins over OMP_NUM_THREADS and SLURM_CPUS_PER_TASK") {
  mlsys::test::TempDir dir("threads");
  const int n = cpus_here();
  Threads t = threads_of(dir, "OMP_NUM_THREADS=1 SLURM_CPUS_PER_TASK=1", "--set run.threads=" + std::to_string(n));
  CHECK(t.run == n);
  CHECK(t.from == "run.threads");
  auto bad = run_shell("OMP_NUM_THREADS=lots " + kBin + " simulate -q --out '" + (dir / "bad").string() + "'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("OMP_NUM_THREADS='lots' is not a thread count") != std::string::npos);
}

TEST_CASE("cli threads: taskset -c 0 gives 1 thread, also when more were asked for") {
  if (run_shell("command -v taskset").exit_code != 0)
    MLSYS_SKIP("no-taskset", "taskset (util-linux) is not installed: cannot set an affinity mask");
  mlsys::test::TempDir dir("threads");
  Threads t = threads_of(dir, "taskset -c 0");
  CHECK(t.run == 1);
  CHECK(t.resources == 1);
  CHECK(t.from == "affinity");
  t = threads_of(dir, "taskset -c 0", "--set run.threads=4");
  CHECK(t.run == 1);
  CHECK(t.from == "affinity");
  CHECK(t.capped == "run.threads=4");
}
