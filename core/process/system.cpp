#include "core/process/system.hpp"

#include <malloc.h>
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
#include <ctime>

#include "core/process/thread_policy.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"

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

namespace detail {
std::atomic<bool> g_interrupted{false};
}  // namespace detail

namespace {
std::mutex g_mem_mu;
std::map<int, std::pair<std::string, std::function<Json()>>> g_reporters;
int g_next_reporter = 0;
using detail::g_interrupted;
std::atomic<int> g_signal{0};  // the first stop signal (0: none)
std::atomic<int> g_threads{1};

std::atomic<int64_t> g_first_signal_ns{0};

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Async-signal-safe only: atomics, clock_gettime, write, unlink, _exit.
extern "C" void on_stop_signal(int sig) {
  if (g_interrupted.exchange(true)) {
    // One stop often arrives more than once within microseconds: `timeout` signals the command and
    // then its process group, a terminal's Ctrl-C reaches mpirun and every rank, which mpirun then
    // signals again. Only a signal well after the first means "stop now".
    if (monotonic_ns() - g_first_signal_ns.load() < kRepeatedSignalWindowNs) return;
    remove_registered_temporaries();
    const char msg[] = "\nmlsys: second interrupt: temporary files removed, exiting now (code 130)\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(kExitInterrupted);
  }
  g_first_signal_ns = monotonic_ns();
  g_signal = sig;
  const char term[] = "\nmlsys: SIGTERM received; finishing the current step and saving state (signal again to abort)\n";
  const char intr[] = "\nmlsys: interrupt received; finishing the current step and saving state (Ctrl-C again to abort)\n";
  if (sig == SIGTERM) (void)!::write(2, term, sizeof term - 1);
  else (void)!::write(2, intr, sizeof intr - 1);
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
  // By name, not registration order: rank threads register their pools in a racy order, and
  // summary.json must not change between two runs of the same config.
  std::vector<std::pair<std::string, const std::function<Json()>*>> sorted;
  for (auto& [id, r] : g_reporters) sorted.emplace_back(r.first, &r.second);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Json pools = Json::object();
  for (auto& [name, report] : sorted) pools[name] = (*report)();
  out["pools"] = pools;
  // Per device (only where device pools exist, so host-only records are unchanged): the sum of its
  // pools' peaks (what they held at most; exact with one pool, an upper bound with several whose
  // peaks need not coincide) and the driver's figure at its highest.
  Json devices = Json::object();
  for (const auto& [name, pool] : pools.as_object()) {
    const Json* dev = pool.find("device");
    if (!dev || !dev->is_string()) continue;
    Json& d = devices[dev->as_string()];
    if (!d.is_object()) d = Json::object();
    const Json* peak = pool.find("peak_bytes");
    const Json* driver = pool.find("driver_used_peak_bytes");
    const Json* sum = d.find("pool_peak_bytes");
    const Json* drv = d.find("driver_used_peak_bytes");
    d["pool_peak_bytes"] = (sum ? sum->as_uint() : 0) + (peak ? peak->as_uint() : 0);
    d["driver_used_peak_bytes"] = std::max(drv ? drv->as_uint() : 0, driver ? driver->as_uint() : 0);
  }
  if (devices.size() > 0) out["devices"] = devices;
  return out;
}

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}
std::string interrupt_signal_name() {
  switch (g_signal.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}
void clear_interrupt() {
  g_interrupted = false;
  g_signal = 0;
}

std::string self_executable() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "mlsys";
  return std::string(buf, static_cast<size_t>(n));
}

int set_thread_count(int threads) {
  int n = threads > 0 ? threads : affinity_cpu_count();
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
  g_threads = n;
  return n;
}
int thread_count() { return g_threads.load(); }

void return_large_blocks_to_system() { (void)mallopt(M_MMAP_THRESHOLD, 128 * 1024); }

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
