// Replays the IDX fuzz target (tests/fuzz/fuzz_idx.cpp) on image and label files written here and
// on seeded mutations of them, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_idx.cpp"

#include "tests/common/fuzz_replay.hpp"

namespace {

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

}  // namespace

TEST_CASE("fuzz replay: IDX image and label files and their mutations are read or refused") {
  const std::string images = std::string("\0\0\x08\x03", 4) + be32(2) + be32(3) + be32(3) + std::string(18, '\x7f');
  const std::string labels = std::string("\0\0\x08\x01", 4) + be32(4) + std::string("\x00\x01\x02\x01", 4);
  const std::string floats = std::string("\0\0\x0d\x03", 4) + be32(1) + be32(2) + be32(2) + std::string(16, '\0');
  mlsys::test::replay_fuzz_target(fuzz_idx, {images, labels, floats}, 4, 300);
}
