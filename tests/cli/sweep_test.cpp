// Sweeps (#15.5) through the real binary: the same plan on local threads, under mpirun and as a
// SLURM array (SLURM_ARRAY_TASK_ID set by hand through the shipped sbatch script) produce
// byte-identical merged tables; resume, validation and the merged MPI trace; an edited sweep (or a
// changed input file) re-runs exactly the configurations it changed, and merge never mixes plans.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/runtime/build_info.hpp"
#include "core/io/csv.hpp"
#include "core/process/thread_policy.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_shell;
namespace fs = std::filesystem;

namespace {
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
const std::string kBin = MLSYS_BINARY;

// 2 configs x 2 policies x 2 seeds = 8 configurations of a small simulation.
fs::path write_sweep(const mlsys::test::TempDir& dir) {
  mlsys::test::write_text(dir / "cfg/small.yaml", "tracegen:\n  jobs: 150\n");
  mlsys::test::write_text(dir / "cfg/bigger.yaml", "tracegen:\n  jobs: 250\n");
  mlsys::test::write_text(dir / "sweep.yaml",
                          "sweep:\n  command: simulate\n  configs: [cfg/small.yaml, cfg/bigger.yaml]\n"
                          "  seeds: [1, 2]\n  grid:\n    sim.policy: [fifo, sjf]\n  workers: 2\n");
  return dir / "sweep.yaml";
}
}  // namespace

TEST_CASE("cli sweep: threads, mpirun and a SLURM array give byte-identical tables") {
  mlsys::test::TempDir dir("sweep");
  fs::path sweep = write_sweep(dir);
  auto threads = run_shell(kBin + " sweep '" + sweep.string() + "' -q --out '" + (dir / "threads").string() + "'");
  REQUIRE_MESSAGE(threads.exit_code == 0, threads.out << threads.err);
  std::string table = mlsys::test::read_text(dir / "threads/sweep.csv");
  auto lines = mlsys::split(table, '\n');
  REQUIRE(lines.size() == 10);  // header, 8 rows, final newline
  CHECK(mlsys::starts_with(lines[0], "index,config,seed,sim.policy,status,tracegen.jobs,tracegen.durations,simulation.config,"));
  CHECK(mlsys::starts_with(lines[1], "0,cfg/small.yaml,1,fifo,complete,"));
  CHECK(mlsys::starts_with(lines[8], "7,cfg/bigger.yaml,2,sjf,complete,"));
  CHECK(contains(lines[1], ",150,"));

  // SLURM array: each task through the shipped sbatch script, then the merge command.
  const std::string array_out = (dir / "array").string();
  for (int task = 0; task < 8; ++task) {
    auto r = run_shell("SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " MLSYS=" + kBin + " bash " +
                       (mlsys::test::source_dir() / "scripts/sweep/array.sbatch").string() + " '" + sweep.string() +
                       "' '" + array_out + "'");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  }
  CHECK_FALSE(fs::exists(dir / "array/sweep.csv"));
  auto merged = run_shell(kBin + " sweep merge '" + sweep.string() + "' --out '" + array_out + "'");
  REQUIRE_MESSAGE(merged.exit_code == 0, merged.err);
  CHECK(mlsys::test::read_text(dir / "array/sweep.csv") == table);

  if (!mlsys::built_with_mpi()) {
    MESSAGE("SKIPPED: the mpirun part needs a build with MPI (libopenmpi-dev)");
    return;
  }
  auto mpi = run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe " +
                       kBin + " sweep '" + sweep.string() + "' --out '" + (dir / "mpi").string() + "'");
  REQUIRE_MESSAGE(mpi.exit_code == 0, mpi.out << mpi.err);
  CHECK(mlsys::test::read_text(dir / "mpi/sweep.csv") == table);
  // Rank-prefixed log lines, and one trace holding both ranks' runs on one clock.
  CHECK(contains(mpi.err, "[r0 "));
  CHECK(contains(mpi.err, "[r1 "));
  auto trace = mlsys::Json::parse(mlsys::test::read_text(dir / "mpi/trace.json"));
  int spans[2] = {0, 0};
  for (const auto& e : trace.find("traceEvents")->as_array()) {
    if (e.find("ph")->as_string() != "X") continue;
    CHECK(e.find("ts")->as_number() >= 0);
    spans[e.find("pid")->as_int()]++;
  }
  CHECK(spans[0] == 4);
  CHECK(spans[1] == 4);
}

TEST_CASE("cli sweep: array.sbatch runs its task under a launcher prefix that drops the job's environment") {
  // The stand-in launcher behaves like a container started with a clean environment (apptainer
  // --cleanenv, docker run): it records what it was given and runs the rest with nothing but PATH.
  mlsys::test::TempDir dir("sweep");
  fs::path sweep = write_sweep(dir);
  const fs::path record = dir / "launcher.txt";
  mlsys::test::write_text(dir / "launcher.sh", "printf '%s\\n' \"SRUN_CPUS_PER_TASK=${SRUN_CPUS_PER_TASK:-}\" \"$@\" > '" +
                                                    record.string() + "'\nexec env -i PATH=/usr/bin:/bin \"$@\"\n");
  const std::string out = (dir / "array").string();
  auto r = run_shell("SLURM_ARRAY_TASK_ID=3 SLURM_CPUS_PER_TASK=2 MLSYS=" + kBin + " bash " +
                     (mlsys::test::source_dir() / "scripts/sweep/array.sbatch").string() + " '" + sweep.string() +
                     "' '" + out + "' bash '" + (dir / "launcher.sh").string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  auto seen = mlsys::split(mlsys::test::read_text(record), '\n');
  REQUIRE(seen.size() >= 3);
  CHECK(seen[0] == "SRUN_CPUS_PER_TASK=2");  // srun as the launcher gets the job's CPUs per task
  CHECK(seen[1] == "env");
  // Only task 3 ran, with the allocation as its thread count (capped by this machine's CPUs).
  CHECK(fs::exists(dir / "array/runs/0003/summary.json"));
  for (const char* other : {"0000", "0002", "0004", "0007"}) CHECK_FALSE(fs::exists(dir / "array/runs" / other));
  auto run = mlsys::Json::parse(mlsys::test::read_text(dir / "array/runs/0003/summary.json"));
  const auto& rec = *run.find("run");
  CHECK(rec.find("threads")->as_int() == std::min(2, mlsys::affinity_cpu_count()));
  CHECK(rec.find("environment")->find("SLURM_ARRAY_TASK_ID")->as_string() == "3");
  CHECK(rec.find("environment")->find("SLURM_CPUS_PER_TASK")->as_string() == "2");
}

TEST_CASE("cli sweep: a re-run resumes, keeping complete configurations, and list prints the array range") {
  mlsys::test::TempDir dir("sweep");
  fs::path sweep = write_sweep(dir);
  const std::string out = (dir / "s").string();
  auto list = run_shell(kBin + " sweep list '" + sweep.string() + "' --out '" + out + "'");
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, "8 configurations (SLURM: --array=0-7)"));
  CHECK(contains(list.out, "runs/0003: simulate " + (dir / "cfg/small.yaml").string()));
  REQUIRE(run_shell("SLURM_ARRAY_TASK_ID=2 " + kBin + " sweep '" + sweep.string() + "' -q --out '" + out + "'").exit_code == 0);
  std::string before = mlsys::test::read_text(dir / "s/runs/0002/summary.json");
  auto all = run_shell(kBin + " sweep '" + sweep.string() + "' --out '" + out + "'");
  CHECK(all.exit_code == 0);
  CHECK(contains(all.err, "runs/0002 already complete, kept"));
  CHECK(mlsys::test::read_text(dir / "s/runs/0002/summary.json") == before);
  auto bad_task = run_shell("SLURM_ARRAY_TASK_ID=8 " + kBin + " sweep '" + sweep.string() + "' --out '" + out + "'");
  CHECK(bad_task.exit_code == 2);
  CHECK(contains(bad_task.err, "submit with --array=0-7"));
}

TEST_CASE("cli sweep: merge names a damaged summary.json and says how to redo that configuration") {
  // Before: "invalid JSON at line 2, column 1" with no file named.
  mlsys::test::TempDir dir("sweep_corrupt");
  fs::path sweep = write_sweep(dir);
  const std::string out = (dir / "s").string();
  REQUIRE(run_shell("SLURM_ARRAY_TASK_ID=1 " + kBin + " sweep '" + sweep.string() + "' -q --out '" + out + "'").exit_code == 0);
  mlsys::test::write_text(dir / "s/runs/0001/summary.json", "{\"broken\": \n");
  auto merged = run_shell(kBin + " sweep merge '" + sweep.string() + "' --out '" + out + "'");
  CHECK(merged.exit_code == 1);
  CHECK_MESSAGE(contains(merged.err, (dir / "s/runs/0001/summary.json").string() + ": invalid JSON"), merged.err);
  CHECK_MESSAGE(contains(merged.err, "run the sweep again to redo that configuration"), merged.err);
}

TEST_CASE("cli sweep: a bad grid key or command is one error before anything runs") {
  mlsys::test::TempDir dir("sweep");
  mlsys::test::write_text(dir / "bad.yaml", "sweep:\n  command: simulate\n  grid:\n    sim.polcy: [fifo, sjf]\n");
  auto r = run_shell(kBin + " sweep '" + (dir / "bad.yaml").string() + "' --out '" + (dir / "o").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "did you mean 'sim.policy'"));
  CHECK_FALSE(fs::exists(dir / "o/runs"));
  mlsys::test::write_text(dir / "cmd.yaml", "sweep:\n  command: simulat\n");
  r = run_shell(kBin + " sweep '" + (dir / "cmd.yaml").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "not a command"));
  CHECK(run_shell(kBin + " sweep --help").exit_code == 0);
}

namespace {
// The sweep file of the case: FIFO vs. SJF, three seeds, on a generated trace of `jobs` jobs.
fs::path write_jobs_sweep(const mlsys::test::TempDir& dir, int jobs, const std::string& policies = "fifo, sjf") {
  mlsys::test::write_text(dir / "sweep.yaml", "sweep:\n  command: simulate\n  seeds: [1, 2, 3]\n  grid:\n    sim.policy: [" +
                                                  policies + "]\n  set: [\"tracegen.jobs=" + std::to_string(jobs) +
                                                  "\"]\n  workers: 2\n");
  return dir / "sweep.yaml";
}

// Column `name` of every row of a sweep.csv.
std::vector<std::string> column(const fs::path& csv, const std::string& name) {
  mlsys::CsvReader in(csv);
  in.read_header();
  const int at = in.require(name);
  std::vector<std::string> out;
  while (in.next()) out.emplace_back(in.field(static_cast<size_t>(at)));
  return out;
}
}  // namespace

TEST_CASE("cli sweep: an edited sweep re-runs exactly the changed configurations, never a table of two plans") {
  mlsys::test::TempDir dir("sweep");
  const std::string out = (dir / "s").string();
  const fs::path table = dir / "s/sweep.csv";
  auto sweep = [&](const std::string& extra = "") {
    return run_shell(extra + kBin + " sweep '" + (dir / "sweep.yaml").string() + "' --out '" + out + "'");
  };
  write_jobs_sweep(dir, 500);
  auto first = sweep();
  REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
  CHECK(column(table, "simulation.jobs") == std::vector<std::string>(6, "500"));

  // 500 -> 600 jobs: every configuration changed; none of the 500-job results may stay.
  write_jobs_sweep(dir, 600);
  auto edited = sweep();
  REQUIRE_MESSAGE(edited.exit_code == 0, edited.out << edited.err);
  CHECK(contains(edited.err, "6 of 6 configurations changed since the last sweep (config): re-running them"));
  CHECK(contains(edited.out, "6 complete"));
  CHECK(column(table, "simulation.jobs") == std::vector<std::string>(6, "600"));
  CHECK(column(table, "tracegen.jobs") == std::vector<std::string>(6, "600"));

  // A second policy replaced: the three FIFO runs are kept byte for byte, the three others re-run.
  const std::string fifo = mlsys::test::read_text(dir / "s/runs/0001/summary.json");
  write_jobs_sweep(dir, 600, "fifo, srtf");
  auto policy = sweep();
  REQUIRE_MESSAGE(policy.exit_code == 0, policy.out << policy.err);
  CHECK(contains(policy.err, "3 of 6 configurations changed since the last sweep (config): re-running them"));
  CHECK(contains(policy.err, "runs/0001 already complete, kept"));
  CHECK(mlsys::test::read_text(dir / "s/runs/0001/summary.json") == fifo);
  CHECK(column(table, "simulation.policy") == std::vector<std::string>{"fifo", "fifo", "fifo", "srtf", "srtf", "srtf"});

  // Nothing changed: nothing runs, nothing is announced.
  auto again = sweep();
  CHECK(again.exit_code == 0);
  CHECK_FALSE(contains(again.err, "changed since the last sweep"));

  // The SLURM path: merge after an edit, before the tasks ran again, leaves every run out...
  write_jobs_sweep(dir, 700, "fifo, srtf");
  auto merged = run_shell(kBin + " sweep merge '" + (dir / "sweep.yaml").string() + "' --out '" + out + "'");
  CHECK(merged.exit_code == 1);
  CHECK(contains(merged.out, "6 stale"));
  CHECK(contains(merged.out, "stale: runs of an earlier plan (6 config)"));
  CHECK(column(table, "status") == std::vector<std::string>(6, "stale"));
  CHECK(mlsys::starts_with(mlsys::test::read_text(table), "index,config,seed,sim.policy,status\n"));  // no results
  // ...and an array task re-runs its own configuration, which the next merge then shows.
  auto task = sweep("SLURM_ARRAY_TASK_ID=4 ");
  REQUIRE_MESSAGE(task.exit_code == 0, task.out << task.err);
  CHECK(contains(task.err, "1 of 1 configurations changed since the last sweep (config)"));
  merged = run_shell(kBin + " sweep merge '" + (dir / "sweep.yaml").string() + "' --out '" + out + "'");
  CHECK(merged.exit_code == 1);
  CHECK(column(table, "status") ==
        std::vector<std::string>{"stale", "stale", "stale", "stale", "complete", "stale"});
  CHECK(column(table, "simulation.jobs") == std::vector<std::string>{"", "", "", "", "700", ""});
}

TEST_CASE("cli sweep: a changed input file re-runs the configurations that read it") {
  mlsys::test::TempDir dir("sweep");
  const std::string trace = (dir / "trace.csv").string();
  auto generate = [&](int jobs) {
    auto r = run_shell(kBin + " simulate generate -q --overwrite --set tracegen.jobs=" + std::to_string(jobs) +
                       " --set tracegen.out=" + trace + " --out '" + (dir / "gen").string() + "'");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  };
  generate(40);
  mlsys::test::write_text(dir / "sweep.yaml", "sweep:\n  command: simulate\n  seeds: [1, 2]\n  set: [\"trace.path=" +
                                                  trace + "\"]\n");
  const std::string out = (dir / "s").string();
  auto sweep = [&] { return run_shell(kBin + " sweep '" + (dir / "sweep.yaml").string() + "' --out '" + out + "'"); };
  REQUIRE(sweep().exit_code == 0);
  CHECK(column(dir / "s/sweep.csv", "simulation.jobs") == std::vector<std::string>(2, "40"));
  generate(50);
  auto r = sweep();
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  CHECK(contains(r.err, "2 of 2 configurations changed since the last sweep (inputs): re-running them"));
  CHECK(column(dir / "s/sweep.csv", "simulation.jobs") == std::vector<std::string>(2, "50"));
  // A folder without a fingerprint (a sweep made before they were kept) is not trusted either.
  fs::remove(dir / "s/runs/0000/.mlsys-sweep-plan.json");
  r = sweep();
  CHECK(contains(r.err, "1 of 2 configurations changed since the last sweep (no recorded plan)"));
}
