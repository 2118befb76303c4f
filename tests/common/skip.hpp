#pragma once
// Honest accounting: a test whose prerequisite is missing (no GPU, no NCCL, no shared data, no MPI)
// is reported as SKIPPED by ctest, never as passed.
//
//   if (!test::cuda_present()) MLSYS_SKIP("no-gpu", "no CUDA device: " << reason);
//
// prints "SKIPPED [no-gpu]: <message>" and returns from the test case. A test binary in which
// every test case that ran was skipped prints "TEST SKIPPED [reasons]" and exits with
// kSkipExitCode, which ctest reads as "Skipped" (SKIP_RETURN_CODE, set on every test by
// tests/CMakeLists.txt; each doctest case is its own ctest test); a binary that also ran other
// cases prints one line counting its skipped cases by reason. A test that is not a doctest case
// skips the same way: print "TEST SKIPPED [reason]: why" and exit 77. After the tests ctest runs
// tests/common/skip_summary.py (CTestCustom.cmake), whose line counting every skipped test by
// reason ends the run.
#include <sstream>
#include <string>

namespace mlsys::test {

constexpr int kSkipExitCode = 77;

// The reason keys, so the summary groups alike causes: "no-gpu", "no-nccl", "gpus<ranks",
// "no-shared-data", "no-mpi".
void record_skip(const std::string& reason, const std::string& message);

}  // namespace mlsys::test

#define MLSYS_SKIP(reason, message)                                 \
  do {                                                              \
    std::ostringstream mlsys_skip_text;                             \
    mlsys_skip_text << message;                                     \
    ::mlsys::test::record_skip((reason), mlsys_skip_text.str());    \
    return;                                                         \
  } while (0)
