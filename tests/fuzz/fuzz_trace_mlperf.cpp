// libFuzzer target for the 'mlperf' trace reader (MLPerf runs.csv; make fuzz): see trace_reader_fuzz.hpp.
#include "sched/workload/traces/readers/mlperf_reader.cpp"
#include "tests/fuzz/trace_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mlsys::fuzz::fuzz_trace_reader("mlperf", "runs.csv", data, size);
}
