// The inproc backend: ranks are threads of this process sharing an InprocGroup (always built).
#include <exception>
#include <thread>

#include "core/comm/comm_error.hpp"
#include "core/comm/factory.hpp"
#include "core/comm/inproc/inproc_communicator.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

void run_inproc(int world_size, const CommOptions& options, const RankBody& body) {
  if (world_size < 1) throw ConfigError("comm.world_size must be >= 1, got " + std::to_string(world_size));
  auto group = std::make_shared<InprocGroup>(world_size, options);
  std::vector<std::exception_ptr> errors(static_cast<size_t>(world_size));
  std::vector<bool> secondary(static_cast<size_t>(world_size), false);
  std::vector<std::thread> threads;
  threads.reserve(size_t(world_size));
  for (int r = 0; r < world_size; ++r) {
    threads.emplace_back([&, r] {
      InprocCommunicator comm(group, r);
      try {
        body(comm);
      } catch (const CommAbortedError&) {
        errors[size_t(r)] = std::current_exception();
        secondary[size_t(r)] = true;
      } catch (const std::exception& e) {
        errors[size_t(r)] = std::current_exception();
        group->abort("rank " + std::to_string(r) + " failed: " + e.what());
      } catch (...) {
        errors[size_t(r)] = std::current_exception();
        group->abort("rank " + std::to_string(r) + " failed with an unknown exception");
      }
      group->rank_exited(r);
    });
  }
  for (auto& t : threads) t.join();
  // The root cause first: an error that is not merely "aborted because another rank failed".
  for (int r = 0; r < world_size; ++r)
    if (errors[size_t(r)] && !secondary[size_t(r)]) std::rethrow_exception(errors[size_t(r)]);
  for (int r = 0; r < world_size; ++r)
    if (errors[size_t(r)]) std::rethrow_exception(errors[size_t(r)]);
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
