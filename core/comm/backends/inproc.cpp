// The inproc backend: ranks are threads of this process sharing an InprocGroup (always built).
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "core/comm/comm_error.hpp"
#include "core/comm/factory.hpp"
#include "core/comm/inproc/inproc_communicator.hpp"
#include "core/log/log.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

namespace {

// What the rank threads share with run_inproc. Held by shared_ptr: a rank that stalls past a
// failure is left running (detached) and must not touch run_inproc's frame.
struct InprocRun {
  std::shared_ptr<InprocGroup> group;
  RankBody body;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::exception_ptr> errors;
  std::vector<bool> secondary, finished;
  int running = 0;
  std::optional<std::chrono::steady_clock::time_point> failed_at;
};

void run_rank(const std::shared_ptr<InprocRun>& run, int r) {
  std::exception_ptr error;
  bool secondary = false;
  {
    InprocCommunicator comm(run->group, r);
    try {
      run->body(comm);
    } catch (const CommAbortedError&) {
      error = std::current_exception();
      secondary = true;
    } catch (const std::exception& e) {
      error = std::current_exception();
      run->group->abort("rank " + std::to_string(r) + " failed: " + e.what());
    } catch (...) {
      error = std::current_exception();
      run->group->abort("rank " + std::to_string(r) + " failed with an unknown exception");
    }
  }
  run->group->rank_exited(r);
  std::lock_guard<std::mutex> lock(run->mu);
  run->errors[size_t(r)] = error;
  run->secondary[size_t(r)] = secondary;
  run->finished[size_t(r)] = true;
  --run->running;
  if (error && !run->failed_at) run->failed_at = std::chrono::steady_clock::now();
  run->cv.notify_all();
}

}  // namespace

// Once a rank has failed, the others are woken by the group abort (or fail at their next
// communication); a rank that still has not returned after a grace period is stalled (asleep, in
// a loop): it is left running and the failure is reported now, so a stall is reported within about
// comm.timeout_s instead of whenever (if ever) the stalled rank returns.
void run_inproc(int world_size, const CommOptions& options, const RankBody& body) {
  if (world_size < 1) throw ConfigError("comm.world_size must be >= 1, got " + std::to_string(world_size));
  auto run = std::make_shared<InprocRun>();
  run->group = std::make_shared<InprocGroup>(world_size, options);
  run->body = body;
  run->errors.resize(size_t(world_size));
  run->secondary.assign(size_t(world_size), false);
  run->finished.assign(size_t(world_size), false);
  run->running = world_size;
  std::vector<std::thread> threads;
  threads.reserve(size_t(world_size));
  for (int r = 0; r < world_size; ++r) threads.emplace_back(run_rank, run, r);
  const auto grace = std::chrono::duration<double>(std::min(options.timeout_s, std::max(1.0, 0.1 * options.timeout_s)));
  std::vector<int> stalled;
  {
    std::unique_lock<std::mutex> lock(run->mu);
    for (;;) {
      if (run->running == 0) break;
      if (!run->failed_at) {
        run->cv.wait(lock);
        continue;
      }
      auto until = *run->failed_at + std::chrono::duration_cast<std::chrono::steady_clock::duration>(grace);
      if (run->cv.wait_until(lock, until) == std::cv_status::timeout && std::chrono::steady_clock::now() >= until) {
        for (int r = 0; r < world_size; ++r)
          if (!run->finished[size_t(r)]) stalled.push_back(r);
        break;
      }
    }
  }
  for (int r = 0; r < world_size; ++r) {
    if (std::find(stalled.begin(), stalled.end(), r) != stalled.end()) threads[size_t(r)].detach();
    else threads[size_t(r)].join();
  }
  std::lock_guard<std::mutex> lock(run->mu);
  for (int r : stalled)
    log::warn("inproc rank {} of {} has not returned {:g} s after the failure below; it is left running and fails "
              "at its next communication", r, world_size, grace.count());
  // The root cause first: an error that is not merely "aborted because another rank failed".
  for (int r = 0; r < world_size; ++r)
    if (run->errors[size_t(r)] && !run->secondary[size_t(r)]) std::rethrow_exception(run->errors[size_t(r)]);
  for (int r = 0; r < world_size; ++r)
    if (run->errors[size_t(r)]) std::rethrow_exception(run->errors[size_t(r)]);
}

namespace {

class InprocBackend final : public Backend {
 public:
  bool in_process() const override { return true; }
  std::unique_ptr<Communicator> make(const CommOptions& options, int) const override {
    if (options.world_size != 1)
      throw ConfigError("comm.backend inproc with world_size " + std::to_string(options.world_size) +
                        " runs its ranks as threads: use comm::run_ranks / run_inproc instead of make_communicator");
    return std::make_unique<InprocCommunicator>(std::make_shared<InprocGroup>(1, options), 0);
  }
  void run_ranks(const CommOptions& options, const RankBody& body) const override {
    run_inproc(options.world_size, options, body);
  }
};

const bool registered = backend_registry().add(
    "inproc", "Ranks are threads of this process (comm.world_size of them); optional link model",
    [] { return std::make_unique<InprocBackend>(); });

}  // namespace
}  // namespace mlsys::comm
