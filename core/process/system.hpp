#pragma once
// Process-level facts: memory high-water marks, interrupt handling, thread setup.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "core/util/json.hpp"

namespace mlsys {

// Peak resident set size of this process (VmHWM), bytes; 0 if unknown.
uint64_t peak_rss_bytes();
uint64_t current_rss_bytes();

// Memory pools register a reporter so every command's summary lists their statistics
// (bytes in use, peak, cached, hit rate). Returns an id for unregister_memory_reporter.
int register_memory_reporter(std::string name, std::function<Json()> report);
void unregister_memory_reporter(int id);
// {"peak_host_rss_bytes": ..., "pools": {name: {...}}}
Json memory_report();

// SIGINT and SIGTERM (what SLURM, Kubernetes and `timeout` send) are handled alike: the first sets
// a flag that long loops poll (RunContext::stop_requested) so they can save state and stop at a
// safe point; a second one, at least kRepeatedSignalWindowNs later (copies of the first that
// `timeout` or mpirun deliver within microseconds do not count), removes the registered
// temporaries (core/util/fs.hpp) and exits at once with kExitInterrupted (130).
inline constexpr int64_t kRepeatedSignalWindowNs = 500'000'000;
void install_interrupt_handler();
namespace detail {
extern std::atomic<bool> g_interrupted;  // set by the handler; read through interrupted()
}
// Inline and relaxed: cheap enough to ask once per round of the hottest loop (LongLoop::tick).
inline bool interrupted() { return detail::g_interrupted.load(std::memory_order_relaxed); }
// The signal that set the flag, as users and schedulers name it ("SIGINT", "SIGTERM"); "a signal"
// when the flag was set otherwise (tests) or not at all. Stop messages name it.
std::string interrupt_signal_name();
void clear_interrupt();  // for tests

// Absolute path of the running executable (/proc/self/exe), or "mlsys" when it cannot be read.
std::string self_executable();

// Applies a thread count to OpenMP and OpenBLAS (0: every CPU of the affinity mask); returns the
// count used. Runs choose the count with choose_threads (core/process/thread_policy.hpp).
int set_thread_count(int threads);
int thread_count();

// Rank and process count an MPI launcher (Open MPI, MPICH/PMI, PMIx) put in the environment,
// readable before MPI_Init so the run folder can be set up; -1 and 0 when not launched by one.
int launcher_rank();
int launcher_size();
inline bool launched_by_mpi_launcher() { return launcher_rank() >= 0; }

// glibc raises its mmap threshold (up to 32 MiB) each time a large mmapped block is freed, so
// after a load's big temporaries are gone every later tensor-sized block comes from the per-thread
// arenas, and memory freed there stays resident: a 4-worker coauthor_cs epoch peaked 23 MiB
// higher. Pinning the threshold at glibc's initial 128 KiB keeps large blocks mmapped, returned to
// the system when freed (the memory pools cache the hot ones); call it first thing in main.
void return_large_blocks_to_system();

// libgomp reads OMP_WAIT_POLICY once, in a library constructor that runs before main, and its
// default spinning workers starve OpenBLAS's threads on a laptop's few cores (Cora epochs were 10x
// slower with 2 threads under load). Unless the user chose a policy, this re-executes the program
// once with OMP_WAIT_POLICY=passive; call it first thing in main. Returns only if no re-exec.
void reexec_with_passive_openmp_wait(char** argv);

}  // namespace mlsys
