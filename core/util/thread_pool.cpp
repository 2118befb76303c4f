#include "core/util/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace mlsys {

size_t parallel_workers(size_t n, int threads) {
  return std::max<size_t>(1, std::min<size_t>(n, static_cast<size_t>(std::max(1, threads))));
}

std::vector<std::exception_ptr> parallel_for(size_t n, const ParallelOptions& opts, const std::function<void(size_t)>& task) {
  std::vector<std::exception_ptr> errors(opts.collect_errors ? n : 0);
  std::exception_ptr first;
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mu;
  auto work = [&] {
    for (size_t i; (i = next++) < n;) {
      if (opts.stop && opts.stop()) return;
      std::exception_ptr err;
      try {
        task(i);
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu);
      if (err && opts.collect_errors) errors[i] = err;
      else if (err) {
        if (!first) first = err;
        next = n;  // hand out nothing more
      }
      ++done;
      if (opts.on_done) opts.on_done(done);
    }
  };
  std::vector<std::thread> pool;
  const size_t workers = parallel_workers(n, opts.threads);
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
  return errors;
}

}  // namespace mlsys
