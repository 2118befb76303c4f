// libFuzzer target for the 'openb' trace reader (make fuzz): see trace_reader_fuzz.hpp.
#include "sched/workload/traces/readers/openb_reader.cpp"
#include "tests/fuzz/trace_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mlsys::fuzz::fuzz_trace_reader("openb", "openb_pod_list.csv", data, size);
}
