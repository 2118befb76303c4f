#pragma once
// What a sweep remembers of each configuration it ran, so that a re-run can tell whether the run
// in a folder still answers the plan (a sweep file edited from 500 to 600 jobs must not keep the
// 500-job results under a sweep.yaml that says 600). The fingerprint of a configuration is
//   - the content hash of its fully resolved config, with the execution settings that do not
//     change a result reset (run.out_dir, overwrite, threads, log_level, progress: a SLURM array
//     gives its tasks SLURM_CPUS_PER_TASK threads, a threaded sweep 1, and their tables agree), and
//   - the content hashes of the input files the run read, as its run record lists them
//     (summary.json run.inputs, xxh3-128), re-hashed from the same paths on the next sweep.
// The sweep writes it to <run folder>/.mlsys-sweep-plan.json after the run ended and removes it
// before a run starts, so it only ever vouches for a run the sweep saw end; each SLURM array task
// writes its own folder's record only.
#include <filesystem>
#include <map>
#include <string>

#include "core/config/resolve.hpp"
#include "core/util/json.hpp"

namespace mlsys {

inline constexpr const char* kSweepPlanFile = ".mlsys-sweep-plan.json";

// The resolved config text a configuration's fingerprint hashes (execution settings reset).
std::string sweep_config_text(const config::ResolvedConfig& cfg);

// Content hashes of input paths, each computed once per sweep (600 configurations often read one
// trace). A path that cannot be read has hash "".
class InputDigests {
 public:
  // Whether every hashed input of a run record's run.inputs still has the recorded hash.
  bool unchanged(const Json& inputs);

 private:
  std::map<std::string, std::string> hashes_;
};

// Why the run in `folder` does not answer a configuration whose resolved config hashes to
// `config_hash`: "" when it does; otherwise "config", "inputs" or "config, inputs", or
// "no recorded plan" (the run was made before sweeps kept one, or the sweep stopped before
// recording it).
std::string sweep_plan_change(const std::filesystem::path& folder, const std::string& config_hash,
                              InputDigests& inputs);
// Records the fingerprint of the run that just ended in `folder` (its inputs from its
// summary.json); does nothing when the run left no summary.
void record_sweep_plan(const std::filesystem::path& folder, const std::string& config_hash);
// Removes a folder's record before the folder is run again.
void forget_sweep_plan(const std::filesystem::path& folder);

}  // namespace mlsys
