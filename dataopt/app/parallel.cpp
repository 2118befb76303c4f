#include "dataopt/app/parallel.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/runtime/run_context.hpp"
#include "core/runtime/system.hpp"

namespace mlsys::dataopt {

void run_parallel(size_t count, int workers, const std::function<void(size_t)>& body) {
  const int threads = thread_count();
  workers = std::max(1, std::min<int>(workers, static_cast<int>(count)));
  set_thread_count(1);
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex mu;
  auto work = [&] {
    for (size_t i; (i = next++) < count;) {
      if (RunContext::stop_requested()) return;
      try {
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  set_thread_count(threads);
  if (failure) std::rethrow_exception(failure);
}

}  // namespace mlsys::dataopt
