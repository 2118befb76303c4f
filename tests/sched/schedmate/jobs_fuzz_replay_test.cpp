// Replays the jobs JSONL fuzz target (tests/fuzz/fuzz_jobs_jsonl.cpp) on job lines written here and
// on seeded mutations of them, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_jobs_jsonl.cpp"

#include "tests/common/fuzz_replay.hpp"

TEST_CASE("fuzz replay: jobs JSONL and its mutations are parsed or refused with an error") {
  const std::vector<std::string> seeds = {
      "{\"id\": \"j1\", \"user\": \"u\", \"name\": \"bert\", \"command\": \"python train.py --epochs 3\", "
      "\"num_gpus\": 8, \"submit_time\": 0, \"duration\": 3600, \"total_steps\": 1000}\n"
      "{\"id\": \"j2\", \"command\": \"torchrun --nproc_per_node 4 train.py\", \"num_gpus\": 4, \"submit_time\": 10}\n",
      "{\"id\": \"j3\", \"num_gpus\": 2.7}\n"};
  mlsys::test::replay_fuzz_target(fuzz_jobs_jsonl, seeds, 3, 300);
}
