// libFuzzer target for the 'mlperf_log' trace reader (MLPerf result logs, :::MLLOG lines and the
// system's name; make fuzz): see trace_reader_fuzz.hpp.
#include "sched/workload/traces/readers/mlperf_log_reader.cpp"
#include "tests/fuzz/trace_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mlsys::fuzz::fuzz_trace_reader("mlperf_log", "result_0.txt", data, size);
}
