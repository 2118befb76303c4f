// Fuzz target: a hints CSV (sched/workload/hints.hpp: what `schedmate advise` writes and
// `simulate --set sim.estimator=hints` reads) from arbitrary bytes. Bad input is an mlsys::Error
// naming the file; anything else is a finding.
#include "core/util/error.hpp"
#include "sched/workload/hints.hpp"
#include "tests/fuzz/fuzz_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(hints) {
  const std::string path = mlsys::fuzz::input_file("hints.csv", data, size);
  try {
    (void)mlsys::workload::read_hints(path);
  } catch (const mlsys::Error&) {
  }
  return 0;
}
