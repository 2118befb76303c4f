// libFuzzer target for the 'tiresias' trace reader (make fuzz): see trace_reader_fuzz.hpp.
#include "sched/workload/traces/readers/tiresias_reader.cpp"
#include "tests/fuzz/trace_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mlsys::fuzz::fuzz_trace_reader("tiresias", "60_job.csv", data, size);
}
