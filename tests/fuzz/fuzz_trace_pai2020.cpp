// libFuzzer target for the 'pai2020' trace reader (make fuzz): see trace_reader_fuzz.hpp.
#include "sched/workload/traces/readers/pai2020_reader.cpp"
#include "tests/fuzz/trace_reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mlsys::fuzz::fuzz_trace_reader("pai2020", "pai_task_table.csv", data, size);
}
