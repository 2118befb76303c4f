#include "core/log/log.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "core/util/error.hpp"

namespace mlsys::log {

namespace {
std::atomic<Level> g_level{Level::Info};
std::atomic<int> g_rank{-1};
std::mutex g_mu;
FILE* g_file = nullptr;
const auto g_start = std::chrono::steady_clock::now();
const char* tag(Level l) {
  switch (l) {
    case Level::Debug: return "debug";
    case Level::Info: return "info";
    case Level::Warn: return "warn";
    case Level::Error: return "error";
    default: return "";
  }
}
}  // namespace

Level level() { return g_level.load(); }
void set_level(Level l) { g_level = l; }

Level parse_level(std::string_view name) {
  if (name == "debug") return Level::Debug;
  if (name == "info") return Level::Info;
  if (name == "warn") return Level::Warn;
  if (name == "error") return Level::Error;
  if (name == "quiet") return Level::Quiet;
  throw UsageError("unknown log level '" + std::string(name) + "'; valid: debug, info, warn, error, quiet");
}

void set_file(const std::string& path) {
  std::lock_guard<std::mutex> lk(g_mu);
  if (g_file) std::fclose(g_file);
  g_file = path.empty() ? nullptr : std::fopen(path.c_str(), "a");
}

double elapsed_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
}

bool stderr_is_tty() { return ::isatty(2) == 1; }

void set_rank(int rank) { g_rank = rank; }

namespace {
void print_line(FILE* f, double t, Level l, std::string_view msg) {
  int rank = g_rank.load();
  if (rank >= 0)
    std::fprintf(f, "[r%d %8.3fs %-5s] %.*s\n", rank, t, tag(l), static_cast<int>(msg.size()), msg.data());
  else
    std::fprintf(f, "[%8.3fs %-5s] %.*s\n", t, tag(l), static_cast<int>(msg.size()), msg.data());
}
}  // namespace

void write(Level l, std::string_view msg) {
  double t = elapsed_seconds();
  std::lock_guard<std::mutex> lk(g_mu);
  if (l >= g_level.load() && g_level.load() != Level::Quiet) print_line(stderr, t, l, msg);
  if (g_file) {
    print_line(g_file, t, l, msg);
    std::fflush(g_file);
  }
}

void write_file_only(Level l, std::string_view msg) {
  double t = elapsed_seconds();
  std::lock_guard<std::mutex> lk(g_mu);
  if (!g_file) return;
  print_line(g_file, t, l, msg);
  std::fflush(g_file);
}

}  // namespace mlsys::log
