// SIGTERM is handled exactly like SIGINT; copies of one signal arriving together count once; a
// second signal exits at once with the interrupted code and removes registered temporaries.
// Each case runs in a forked child so the test process keeps its own signal state.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <thread>

#include "core/runtime/run_context.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
namespace fs = std::filesystem;

namespace {
// Exit status of `body` run in a child process (its return value, or what ended it).
int in_child(const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
}  // namespace

TEST_CASE("signals: SIGTERM and SIGINT both set the stop flag and the process keeps running") {
  for (int sig : {SIGTERM, SIGINT}) {
    int code = in_child([sig] {
      install_interrupt_handler();
      if (RunContext::stop_requested()) return 3;
      raise(sig);
      return RunContext::stop_requested() ? 0 : 4;
    });
    CHECK_MESSAGE(code == 0, "signal " << sig);
  }
}

TEST_CASE("signals: copies of one signal within the window count once (timeout, mpirun)") {
  int code = in_child([] {
    install_interrupt_handler();
    raise(SIGTERM);
    raise(SIGTERM);
    raise(SIGINT);
    return RunContext::stop_requested() ? 0 : 4;
  });
  CHECK(code == 0);
}

TEST_CASE("signals: a second signal later exits at once with 130 and removes registered temporaries") {
  test::TempDir dir("signals");
  fs::path target = dir / "huge.csv";
  int code = in_child([&] {
    install_interrupt_handler();
    TempFile t(target);
    t.write("half written");
    raise(SIGTERM);
    std::this_thread::sleep_for(std::chrono::nanoseconds(kRepeatedSignalWindowNs) + std::chrono::milliseconds(100));
    raise(SIGTERM);
    return 5;  // not reached
  });
  CHECK(code == kExitInterrupted);
  size_t left = 0;
  for (auto& e : fs::directory_iterator(dir.path())) left += !e.path().empty();
  CHECK(left == 0);
}
