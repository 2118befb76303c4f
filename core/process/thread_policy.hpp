#pragma once
// How many threads a run uses, and why: one number for the thread pool (parallel_for), OpenMP and
// OpenBLAS alike (set_thread_count applies it). The CPUs this process may run on (its affinity
// mask: taskset, a cgroup cpuset, SLURM's or mpirun's binding) bound it; within that bound the first
// of these that is set decides:
//   run.threads (> 0)     the config or --set: what the user asked this run to use
//   OMP_NUM_THREADS       the usual per-process limit (the first entry of a nested list "4,2")
//   SLURM_CPUS_PER_TASK   SLURM's allocation (--cpus-per-task), also where no binding is enforced
// and otherwise every CPU of the affinity mask. hardware_concurrency() counts the machine's CPUs,
// not the ones this process was given: on a 128-core node `--cpus-per-task=2` would run 128 threads.
#include <functional>
#include <string>

namespace mlsys {

struct ThreadChoice {
  int threads = 1;
  // Which rule decided: "run.threads", "OMP_NUM_THREADS", "SLURM_CPUS_PER_TASK", or "affinity" (no
  // request, or a request above the affinity mask's CPU count).
  std::string from = "affinity";
  // A request the affinity mask cut down ("run.threads=8"); "" when none was.
  std::string capped;
};

// Looks an environment variable up (nullptr when unset); tests pass a fake one.
using EnvLookup = std::function<const char*(const char*)>;

// The policy above. `configured` is run.threads (0: not set); `affinity_cpus` the affinity mask's
// CPU count. Throws ConfigError when OMP_NUM_THREADS or SLURM_CPUS_PER_TASK is set but not a
// positive count (it is the user's input: used, or the run stops).
ThreadChoice choose_threads(int configured, const EnvLookup& env, int affinity_cpus);
// The same for this process: its environment and affinity mask.
ThreadChoice choose_threads(int configured);

// CPUs in this process's affinity mask (sched_getaffinity); hardware_concurrency() where it cannot
// be read; at least 1.
int affinity_cpu_count();

}  // namespace mlsys
