#include "tests/common/test_util.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/util/fs.hpp"

namespace mlsys::test {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  path_ = fs::path(MLSYS_BINARY_DIR) / "test_tmp" /
          (tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

CommandResult run_shell(const std::string& command) {
  static std::atomic<int> counter{0};
  fs::path dir = fs::path(MLSYS_BINARY_DIR) / "test_tmp";
  fs::create_directories(dir);
  std::string base = (dir / ("cmd_" + std::to_string(::getpid()) + "_" + std::to_string(counter++))).string();
  std::string full = "(" + command + ") >" + base + ".out 2>" + base + ".err";
  int status = std::system(full.c_str());
  CommandResult r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text(base + ".out"),
                  read_text(base + ".err")};
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

CommandResult run_mlsys(const std::string& args, const std::string& cwd) {
  std::string cmd = std::string(MLSYS_BINARY) + " " + args;
  if (!cwd.empty()) cmd = "cd '" + cwd + "' && " + cmd;
  return run_shell(cmd);
}

fs::path shared_data() { return mlsys::data_dir(); }
fs::path source_dir() { return fs::path(MLSYS_SOURCE_DIR); }

void write_text(const fs::path& p, const std::string& content) {
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << content;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace mlsys::test
