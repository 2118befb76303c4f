#pragma once
// Sweeps: one command run over configs x grid of --set values x seeds, each configuration in its
// own run folder (<out>/runs/<index>), merged into one table (<out>/sweep.csv). Three ways to run
// the same plan, with byte-identical tables:
//   threads      `mlsys sweep SWEEP.yaml`: sweep.workers child processes at a time
//   MPI          `mpirun -np N mlsys sweep SWEEP.yaml --out DIR`: configuration i runs on rank
//                i mod N; the results are gathered by rank 0 over MPI, which writes the table
//                and one trace of every rank's runs on a common clock
//   SLURM array  `SLURM_ARRAY_TASK_ID=i mlsys sweep ...` runs configuration i only;
//                `mlsys sweep merge SWEEP.yaml --out DIR` joins the folders afterwards
// Each configuration is a child `mlsys` process (its own run folder, record and exit code). A
// configuration whose folder already holds a complete run of the same plan (its resolved config
// and input files: core/sweep/sweep_plan_record.hpp) is not run again, so re-running a sweep
// resumes it, and re-running an edited sweep re-runs exactly the configurations it changed
// (--overwrite re-runs everything). A run of another plan never reaches the table: merge shows it
// as "stale", with no results.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/sweep/sweep_plan_record.hpp"
#include "core/runtime/table.hpp"

namespace mlsys {

namespace comm {
class Communicator;
}

struct SweepOptions {
  std::string command;                // the mlsys command each configuration runs
  std::string mode;                   // its mode word ("" = the command's default)
  std::vector<std::string> configs;   // config files (one per axis value); empty: the embedded default
  std::vector<int64_t> seeds;         // empty: each config's own run.seed
  config::YamlValue grid;             // {key: [values...]}: every combination becomes --set key=value
  std::vector<std::string> set;       // "key=value" overrides given to every run
  std::string table = "summary.json";  // what each row holds: summary.json values, or a CSV every run writes
  int workers = 0;                    // child processes at a time per process; 0: SweepRun::threads / run_threads
  int run_threads = 1;                // run.threads of each configuration
  int64_t max_runs = 100000;          // configurations a plan may hold (counted before any is built)
};

const config::Section<SweepOptions>& sweep_section();

// One configuration of the plan.
struct SweepPoint {
  size_t index = 0;
  std::string config;       // the config file as shown in the table ("default" for none)
  std::string config_path;  // the file given to the run ("" for none)
  bool has_seed = false;
  int64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> sets;  // grid values, in grid key order
  std::string folder;       // "runs/<index>"
  // Content hash of the run's resolved config (sweep_config_text); the app fills it when it
  // resolves every configuration up front.
  std::string config_hash;
};

struct SweepPlan {
  SweepOptions options;
  std::vector<std::string> grid_keys;
  std::vector<SweepPoint> points;

  // The child's arguments after the binary: command, mode, config, --set ..., --seed, --out, -q.
  std::vector<std::string> child_args(const SweepPoint& p, const std::filesystem::path& out, bool overwrite) const;
  // The grid and fixed overrides of a point as --set assignments (for validating them up front).
  std::vector<std::string> sets_of(const SweepPoint& p) const;
};

// Expands the options into configurations; `base` is the sweep file's folder (config paths in the
// table are shown relative to it). Throws ConfigError on a malformed grid.
SweepPlan make_sweep_plan(const SweepOptions& options, const std::filesystem::path& base);

// What one configuration produced: its status ("complete", "interrupted", "failed", "missing", or
// "stale": the folder holds a run of another plan, `changed` says what differs),
// the child's exit code (-1 when it did not run here) and the payload the table is made from
// (summary.json text, or the CSV's text).
struct SweepResult {
  size_t index = 0;
  std::string status;
  int exit_code = -1;
  std::string payload;
  double start_us = 0, end_us = 0;  // on steady_clock_us(); 0 when not run by this process
  int slot = 0;                     // worker slot that ran it
  int rank = 0;                     // MPI rank that ran it
  std::string changed{};            // stale: "config", "inputs", "config, inputs" or "no recorded plan"
};

// Runs the given configurations as child processes of `binary`, `workers` at a time, skipping
// those whose folder holds a complete run of the same plan (unless overwrite), and says how many
// changed since the last sweep. Stops launching on SIGINT/SIGTERM and passes the signal on to the
// running children.
std::vector<SweepResult> run_sweep_points(const SweepPlan& plan, const std::vector<size_t>& indices,
                                          const std::string& binary, const std::filesystem::path& out,
                                          int workers, bool overwrite);
// Reads a configuration's outcome from its folder; a run of another plan is "stale", without payload.
SweepResult collect_sweep_point(const SweepPlan& plan, size_t index, const std::filesystem::path& out,
                                InputDigests& inputs);
// One table, one row per configuration (summary.json) or per CSV row: the coordinates (index,
// config, seed, grid keys, status) then the results. The run folder's own path is written as
// "<run>" so tables of sweeps into different folders compare byte for byte.
Table merge_sweep(const SweepPlan& plan, const std::vector<SweepResult>& results, const std::filesystem::path& out);
// Collective: every rank's results (and runtime spans) gathered at rank 0, which gets all of them
// in index order; the others get an empty list.
std::vector<SweepResult> gather_sweep_results(comm::Communicator& c, const std::vector<SweepResult>& mine);

// How to run a plan (the app fills it from the command line).
struct SweepRun {
  std::string mode = "run";           // run | list | merge
  std::filesystem::path out;          // the sweep folder
  bool overwrite = false;             // re-run configurations that already completed
  std::string binary;                 // the mlsys executable children run
  double comm_timeout_s = 120;        // MPI: bound on the gather's waits (comm.timeout_s)
  int threads = 1;                    // this process's threads (choose_threads): sweep.workers = 0 divides them
};

// Runs, lists or merges the plan: threads, or this rank's share under an MPI launcher, or the one
// configuration SLURM_ARRAY_TASK_ID names. Writes <out>/sweep.yaml, sweep.csv (not per array task)
// and trace.json. Returns the exit code: 0, 1 when a configuration failed, kExitInterrupted.
int run_sweep(const SweepPlan& plan, const std::string& resolved_yaml, const SweepRun& how);

}  // namespace mlsys
