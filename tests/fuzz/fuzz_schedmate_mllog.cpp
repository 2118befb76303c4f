// Fuzz target: the MLPerf `:::MLLOG` line parser (sched/workload/traces/mlperf.hpp), which both
// MLPerf trace readers and SchedMate's tracker use. A line is parsed or rejected; nothing throws.
#include <string_view>

#include "sched/workload/traces/mlperf.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(schedmate_mllog) {
  using namespace mlsys::workload;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (auto e = parse_mllog_line(line)) {
    (void)mllog_quality(e->value);
    (void)e->meta_number("epoch_num");
    (void)e->meta_string("status");
  }
  (void)accelerators_from_system(line);
  (void)mlperf_benchmark(line);
  return 0;
}
