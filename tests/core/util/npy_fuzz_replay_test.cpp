// Replays the .npy fuzz target (tests/fuzz/fuzz_npy.cpp) on arrays of every type written here and
// on seeded mutations of them, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_npy.cpp"

#include "tests/common/fuzz_replay.hpp"

TEST_CASE("fuzz replay: npy arrays of every type and their mutations are parsed or refused") {
  using mlsys::NpyType;
  const std::string f4(4 * 6, '\x01'), i8(8 * 3, '\x02'), b1(5, '\x01');
  const std::vector<std::string> seeds = {mlsys::npy_file(NpyType::f4, {2, 3}, f4),
                                          mlsys::npy_file(NpyType::i8, {3}, i8),
                                          mlsys::npy_file(NpyType::b1, {5}, b1),
                                          mlsys::npy_file(NpyType::f8, {0}, "")};
  mlsys::test::replay_fuzz_target(fuzz_npy, seeds, 1, 400);
}
