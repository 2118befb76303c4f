// SIGTERM (what SLURM, Kubernetes and `timeout` send) through the real binary: every command exits
// with the one interrupted code, 130, and its summary.json says the results are partial and which
// signal stopped the run; long loops show progress and stop by time (core/process/long_loop.hpp).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_shell;
namespace fs = std::filesystem;

namespace {
const std::string kBin = MLSYS_BINARY;

mlsys::Json summary(const fs::path& dir) { return mlsys::Json::parse(mlsys::test::read_text(dir / "summary.json")); }
}  // namespace

TEST_CASE("cli signals: SIGTERM stops train-gnn at an epoch boundary with a checkpoint, exit 130, partial") {
  mlsys::test::TempDir dir("sigterm");
  auto r = run_shell("timeout --preserve-status -s TERM 2 " + kBin + " train-gnn -q --set run.progress=off " +
                     "--set gnn.epochs=1000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  REQUIRE(fs::exists(dir / "run/summary.json"));
  auto s = summary(dir / "run");
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  CHECK(s.find("run")->find("partial")->as_bool());
  CHECK(fs::exists(dir / "run/checkpoint.bin"));
  CHECK(fs::exists(dir / "run/epochs.csv"));
}

TEST_CASE("cli signals: SIGTERM stops a long simulation with exit 130 and a partial summary") {
  mlsys::test::TempDir dir("sigterm");
  auto r = run_shell("timeout --preserve-status -s TERM 1.0 " + kBin + " simulate -q --set run.progress=off " +
                     "--set tracegen.jobs=2000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  REQUIRE(fs::exists(dir / "run/summary.json"));
  auto s = summary(dir / "run");
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  CHECK(s.find("run")->find("partial")->as_bool());
  CHECK(s.find("run")->find("stopped")->as_string().find("SIGTERM") != std::string::npos);
  // An interrupted run holds partial results: a re-run into it needs --overwrite.
  auto again = mlsys::test::run_mlsys("simulate -q --out '" + (dir / "run").string() + "'");
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("already holds an interrupted run") != std::string::npos);
}

TEST_CASE("cli signals: SIGINT is the same stop as SIGTERM") {
  mlsys::test::TempDir dir("sigint");
  auto r = run_shell("timeout --preserve-status -s INT 2 " + kBin + " train-gnn -q --set run.progress=off " +
                     "--set gnn.epochs=1000000 --out '" + (dir / "run").string() + "'");
  CHECK(r.exit_code == 130);
  CHECK(summary(dir / "run").find("run")->find("status")->as_string() == "interrupted");
}

// ---- stops and progress by time (a long loop is stopped within 1 s and shows progress every 5 s) ----
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The real binary started in the background (stdout and stderr into `log`), to be signalled and
// timed while it runs.
class Background {
 public:
  Background(const std::vector<std::string>& args, const fs::path& log) {
    std::vector<char*> argv;
    std::string bin = kBin;
    argv.push_back(bin.data());
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    const int rc = posix_spawn(&pid_, bin.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
  }
  ~Background() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // True once `file` holds a line with every one of `parts`, waiting up to `limit_s` while the
  // process runs.
  bool wait_for_line(const fs::path& file, const std::vector<std::string>& parts, double limit_s) {
    const auto t0 = Clock::now();
    while (seconds_since(t0) < limit_s) {
      if (fs::exists(file)) {
        std::istringstream in(mlsys::test::read_text(file));
        for (std::string line; std::getline(in, line);) {
          bool all = true;
          for (const auto& p : parts) all = all && line.find(p) != std::string::npos;
          if (all) return true;
        }
      }
      if (exited()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  // Sends `sig` and returns the seconds until the process exited (at most `limit_s`; -1 if it
  // did not) and its exit code in `code`.
  double stop(int sig, double limit_s, int& code) {
    const auto t0 = Clock::now();
    ::kill(pid_, sig);
    while (seconds_since(t0) < limit_s) {
      if (exited()) {
        code = code_;
        return seconds_since(t0);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
  }

 private:
  bool exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    pid_ = -1;
    return true;
  }
  pid_t pid_ = -1;
  int code_ = -1;
};

}  // namespace

TEST_CASE("cli signals: a long SRTF simulation logs progress within 5 s and stops within 1 s of SIGINT, partial summary") {
  // 100k jobs under SRTF take minutes (rounds cost milliseconds there); the engine used to look at
  // the stop flag and report progress every 65,536 rounds: no line and no stop for minutes.
  mlsys::test::TempDir dir("progress_stop");
  const fs::path out = dir / "run";
  const auto t0 = Clock::now();
  Background run({"simulate", "--set", "tracegen.jobs=100000", "--set", "sim.policy=srtf", "--out", out.string()},
                 dir / "console.txt");
  // A progress line of the simulation (rate, ETA) in run.log, whatever stderr is.
  REQUIRE_MESSAGE(run.wait_for_line(out / "run.log", {"simulate: ", "jobs/s", "eta "}, 5.0),
                  "no simulate progress line in run.log within 5 s; console: " << mlsys::test::read_text(dir / "console.txt"));
  const double first_line_s = seconds_since(t0);
  CHECK(first_line_s <= 5.0);
  int code = -1;
  const double stop_s = run.stop(SIGINT, 10.0, code);
  MESSAGE("first progress line after " << first_line_s << " s; exit " << stop_s << " s after SIGINT");
  REQUIRE(stop_s >= 0);
  CHECK(stop_s <= 1.0);
  CHECK(code == 130);
  REQUIRE(fs::exists(out / "summary.json"));
  auto s = summary(out);
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  const std::string stopped = s.find("run")->find("stopped")->as_string();
  CHECK_MESSAGE(stopped.find("SIGINT") != std::string::npos, stopped);
  CHECK_MESSAGE(stopped.find("of 100000 jobs finished") != std::string::npos, stopped);  // what was done
}

TEST_CASE("cli signals: SIGTERM while a large trace is read stops within 1 s and is named SIGTERM") {
  // A generated native trace of ~380 MB (8M rows) that trace.min_gpus filters out row by row (so
  // memory stays flat): reading it takes 2.5 s here. It used to be read to the end before a stop.
  mlsys::test::TempDir dir("read_stop");
  const fs::path trace = dir / "trace.csv";
  {
    std::ofstream f(trace, std::ios::binary);
    std::string chunk = "id,submit_time,duration,num_gpus,gpu_milli,cpu_milli,memory_mib,user,vc,name,state,gpu_type,total_steps,command\n";
    for (int i = 0; i < 8'000'000; ++i) {
      chunk += "j" + std::to_string(i) + "," + std::to_string(i) + ",100,1,1000,0,0,u1,vc1,job,COMPLETED,,0,\n";
      if (chunk.size() > (1u << 20)) {
        f << chunk;
        chunk.clear();
      }
    }
    f << chunk;
  }
  const fs::path out = dir / "run";
  Background run({"simulate", "--trace", trace.string(), "--set", "trace.min_gpus=2", "--out", out.string()},
                 dir / "console.txt");
  // Half a second in, the read is under way (run.stopped below says the read is what stopped).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  int code = -1;
  const double stop_s = run.stop(SIGTERM, 10.0, code);
  MESSAGE("exit " << stop_s << " s after SIGTERM");
  REQUIRE(stop_s >= 0);
  CHECK(stop_s <= 1.0);
  CHECK(code == 130);
  auto s = summary(out);
  CHECK(s.find("run")->find("status")->as_string() == "interrupted");
  const std::string stopped = s.find("run")->find("stopped")->as_string();
  CHECK_MESSAGE(stopped.find("SIGTERM") != std::string::npos, stopped);
  CHECK_MESSAGE(stopped.find("SIGINT") == std::string::npos, stopped);  // TERM was once reported as "(SIGINT)"
  CHECK_MESSAGE(stopped.find("read trace.csv stopped by SIGTERM after ") != std::string::npos, stopped);
  CHECK_MESSAGE(stopped.find(" MiB (") != std::string::npos, stopped);  // how far: "after 120 of 381 MiB (31.5%)"
  const std::string console = mlsys::test::read_text(dir / "console.txt");
  CHECK_MESSAGE(console.find("run stopped by SIGTERM") != std::string::npos, console);
}
