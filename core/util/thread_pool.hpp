#pragma once
// The one way mlsys runs independent tasks on threads: parallel_for(n, threads, task) runs task(i)
// for every i < n on up to `threads` threads (the caller's thread is one of them) and hands tasks
// out in index order, so a task's result never depends on the thread count. Used for sweeps
// (simulate compare, Helios mode) and CoOpt participants; ranks of a communicator are not tasks
// (core/comm starts those).
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

namespace mlsys {

struct ParallelOptions {
  int threads = 1;
  // Called after each finished task with the number finished so far (serialized; e.g. a progress bar).
  std::function<void(size_t done)> on_done;
  // Polled before each task; when it returns true no further task starts (SIGINT).
  std::function<bool()> stop;
  // false: the first failure stops handing out tasks and is rethrown after all threads join.
  // true: every task runs; failures are returned, one slot per task (null when it succeeded).
  bool collect_errors = false;
};

// Returns one exception_ptr per task when collect_errors, else an empty vector (and rethrows the
// first failure). Nested OpenMP/BLAS threads are the caller's business (see core/process/system.hpp).
std::vector<std::exception_ptr> parallel_for(size_t n, const ParallelOptions& opts, const std::function<void(size_t)>& task);

// Threads actually used for n tasks: min(n, threads), at least 1.
size_t parallel_workers(size_t n, int threads);

}  // namespace mlsys
