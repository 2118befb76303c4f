// Replays the hints fuzz target (tests/fuzz/fuzz_hints.cpp) on hints files written here and on
// seeded mutations of them, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_hints.cpp"

#include "tests/common/fuzz_replay.hpp"

TEST_CASE("fuzz replay: hints files and their mutations are read or refused with an error") {
  const std::vector<std::string> seeds = {
      "job_id,predicted_duration_s,uncertainty_s,failure_action\na,100,10,retry\n\"b,1\",2.5e3,,none\n",
      "job_id,predicted_duration_s\nx,1\ny,99999999999\n"};
  mlsys::test::replay_fuzz_target(fuzz_hints, seeds, 2, 300);
}
