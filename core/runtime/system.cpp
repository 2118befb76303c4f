#include "core/runtime/system.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>
#include <thread>

extern "C" void openblas_set_num_threads(int);

namespace mlsys {

static uint64_t status_field_kb(const char* key) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  uint64_t kb = 0;
  size_t klen = std::strlen(key);
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, key, klen) == 0) {
      std::sscanf(line + klen, " %lu", &kb);
      break;
    }
  }
  std::fclose(f);
  return kb * 1024;
}

uint64_t peak_rss_bytes() { return status_field_kb("VmHWM:"); }
uint64_t current_rss_bytes() { return status_field_kb("VmRSS:"); }

namespace {
std::mutex g_mem_mu;
std::map<int, std::pair<std::string, std::function<Json()>>> g_reporters;
int g_next_reporter = 0;
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_threads{1};

extern "C" void on_sigint(int) {
  if (g_interrupted.exchange(true)) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
  const char msg[] = "\nmlsys: interrupt received; finishing the current step and saving state (Ctrl-C again to abort)\n";
  (void)!::write(2, msg, sizeof msg - 1);
}
}  // namespace

int register_memory_reporter(std::string name, std::function<Json()> report) {
  std::lock_guard<std::mutex> lk(g_mem_mu);
  int id = g_next_reporter++;
  g_reporters[id] = {std::move(name), std::move(report)};
  return id;
}

void unregister_memory_reporter(int id) {
  std::lock_guard<std::mutex> lk(g_mem_mu);
  g_reporters.erase(id);
}

Json memory_report() {
  Json out = Json::object();
  out["peak_host_rss_bytes"] = peak_rss_bytes();
  std::lock_guard<std::mutex> lk(g_mem_mu);
  // By name: ranks register their pools in whatever order their threads start, and summary.json
  // must not depend on that.
  std::map<std::string, Json> by_name;
  for (auto& [id, r] : g_reporters) by_name[r.first] = r.second();
  Json pools = Json::object();
  for (auto& [name, report] : by_name) pools[name] = std::move(report);
  out["pools"] = pools;
  return out;
}

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
}
bool interrupted() { return g_interrupted.load(std::memory_order_relaxed); }
void clear_interrupt() { g_interrupted = false; }

int set_thread_count(int threads) {
  int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
  g_threads = n;
  return n;
}
int thread_count() { return g_threads.load(); }

void reexec_with_passive_openmp_wait(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);  // on failure: keep running with libgomp's default policy
}

static int env_int(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const char* v = std::getenv(n); v != nullptr && *v != '\0') return std::atoi(v);
  return -1;
}
int launcher_rank() { return env_int({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}); }
int launcher_size() { return std::max(0, env_int({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})); }

}  // namespace mlsys
