// mlsys: one command-line front end over the four systems. This file only parses arguments,
// picks a command from the table (command_table.hpp) and maps errors to exit codes:
//   0 success, 1 runtime failure, 2 bad usage or bad config, 130 interrupted (SIGINT/SIGTERM).
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "apps/mlsys/command_table.hpp"
#include "core/runtime/build_info.hpp"
#include "core/runtime/run_record.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"

namespace mlsys::app {
extern const char* const kGitSha;  // generated at build time (cmake/git_sha.cmake)
}

namespace {

using namespace mlsys;

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::printf("%s", app::main_help().c_str());
    return 2;
  }
  // The conventional spellings of the two tools every program has.
  if (args[0] == "--help" || args[0] == "-h") args[0] = "help";
  if (args[0] == "--version") args[0] = "version";
  const app::CliEntry& entry = app::require_entry(args[0]);
  return entry.run(std::vector<std::string>(args.begin() + 1, args.end()));
}

}  // namespace

int main(int argc, char** argv) {
  mlsys::reexec_with_passive_openmp_wait(argv);
  mlsys::return_large_blocks_to_system();
  mlsys::set_git_sha(mlsys::app::kGitSha);
  mlsys::set_command_line(argc, argv);
  try {
    return run(argc, argv);
  } catch (const mlsys::UsageError& e) {
    std::fprintf(stderr, "mlsys: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "mlsys: error: out of memory before the run started (reading the configuration)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlsys: error: %s\n", e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "mlsys: error: unknown failure\n");
    return 1;
  }
}
