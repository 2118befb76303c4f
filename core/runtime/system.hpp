#pragma once
// Process-level facts: memory high-water marks, interrupt handling, thread setup.
#include <cstdint>
#include <functional>
#include <string>

#include "core/util/json.hpp"

namespace mlsys {

// Peak resident set size of this process (VmHWM), bytes; 0 if unknown.
uint64_t peak_rss_bytes();
uint64_t current_rss_bytes();

// Memory pools register a reporter so every command's summary lists their statistics
// (bytes in use, peak, cached, hit rate). Returns an id for unregister_memory_reporter.
int register_memory_reporter(std::string name, std::function<Json()> report);
void unregister_memory_reporter(int id);
// {"peak_host_rss_bytes": ..., "pools": {name: {...}}}
Json memory_report();

// First SIGINT sets a flag that long loops poll (so they can checkpoint and exit cleanly); a
// second SIGINT terminates at once.
void install_interrupt_handler();
bool interrupted();
void clear_interrupt();  // for tests

// Applies a thread count (0 = all cores) to OpenMP and OpenBLAS; returns the count used.
int set_thread_count(int threads);
int thread_count();

}  // namespace mlsys
