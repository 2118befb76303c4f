#pragma once
// Helpers shared by the test suites.
#include <exception>
#include <filesystem>
#include <string>

#include "tests/common/skip.hpp"

namespace mlsys::test {

// A fresh empty folder under the build tree, removed when the object dies.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "t");
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& rel) const { return path_ / rel; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs the real `mlsys` binary with `args` (a shell-quoted string), capturing output.
CommandResult run_mlsys(const std::string& args, const std::string& cwd = "");
// Runs any shell command, capturing output.
CommandResult run_shell(const std::string& command);

// Shared real data ($MLSYS_DATA_DIR); empty when absent. Tests that need it skip
// (MLSYS_REQUIRE_SHARED_DATA), which ctest reports as skipped.
std::filesystem::path shared_data();
std::filesystem::path source_dir();
void write_text(const std::filesystem::path& p, const std::string& content);
std::string read_text(const std::filesystem::path& p);

// The message of the E that `f` throws, "" when it throws none (any other exception propagates,
// failing the test): CHECK(thrown_message<InputError>([&] { ... }).find("file: key") == 0).
template <class E = std::exception, class F>
std::string thrown_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace mlsys::test

// Use at the top of a test that needs ../shared: skips (reported by ctest as skipped) with a
// clear message when it is absent.
#define MLSYS_REQUIRE_SHARED_DATA(var)                                                                    \
  auto var = ::mlsys::test::shared_data();                                                              \
  if (var.empty())                                                                                      \
  MLSYS_SKIP("no-shared-data", "set MLSYS_DATA_DIR to ../shared/data to run this test (real data absent)")
