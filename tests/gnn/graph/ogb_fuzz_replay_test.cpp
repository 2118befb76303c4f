// Replays the OGB fuzz target (tests/fuzz/fuzz_ogb.cpp) on a small OGB folder written here and on
// seeded mutations of it, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_ogb.cpp"

#include "tests/common/fuzz_replay.hpp"

TEST_CASE("fuzz replay: OGB folders and their mutations are loaded or refused") {
  const std::string sep = "\n%%\n";
  const std::string ogb = "4" + sep + "0,1\n1,2\n2,3\n3,0" + sep + "0.5,1\n1,0\n0,0.25\n2,2" + sep + "0\n1\n0\n1" + sep +
                          "0\n1" + sep + "2" + sep + "3";
  mlsys::test::replay_fuzz_target(fuzz_ogb, {ogb}, 6, 200);
}

TEST_CASE("fuzz finding: an 8-byte num-node-list cannot size a graph of 41 million nodes") {
  // fuzz_ogb's timeout input: num-node-list "41441411" and nothing else built a 41M-node graph
  // (seconds and hundreds of MB) before any check; the label rows now bound the count first.
  const std::string input = "41441411";
  (void)fuzz_ogb(reinterpret_cast<const uint8_t*>(input.data()), input.size());  // writes the folder
  try {
    mlsys::gnn::load_ogb_graph(ogb_folder());
    FAIL("the folder was accepted");
  } catch (const mlsys::InputError& e) {
    CHECK_MESSAGE(std::string(e.what()).find("41441411 nodes, but") != std::string::npos, e.what());
  }
}
