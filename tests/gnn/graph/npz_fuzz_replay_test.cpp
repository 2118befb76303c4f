// Replays the .npz fuzz target (tests/fuzz/fuzz_npz.cpp) on archives written here in every layout,
// stored and deflated, and on seeded mutations of them (byte flips, cuts, repeated pieces, ZIP64
// markers and large numbers written over size fields), so the target runs in the normal ctest. The
// target throws (other than InputError) or crashes on a bug; here that fails the test.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_npz.cpp"

#include <doctest/doctest.h>

#include "core/util/random.hpp"
#include "tests/common/fuzz_replay.hpp"
#include "tests/gnn/graph/npz_writer.hpp"

TEST_CASE("npz fuzz target replays generated archives and their mutations without a finding") {
  using namespace mlsys::gnn::npztest;
  std::vector<std::string> seeds;
  for (bool deflated : {false, true}) {
    seeds.push_back(zip(benchmark_members(), deflated));
    seeds.push_back(zip(pyg_members(), deflated));
  }
  mlsys::Rng rng(20261201);
  std::vector<std::string> cases = seeds;
  cases.push_back("");
  cases.push_back(std::string("PK\x05\x06", 4) + std::string(18, '\0'));  // an empty archive
  for (const auto& s : seeds)
    for (int i = 0; i < 300; ++i) cases.push_back(mlsys::test::mutate_bytes(s, rng));
  for (const auto& c : cases) {
    CHECK_NOTHROW(fuzz_npz(reinterpret_cast<const uint8_t*>(c.data()), c.size()));
  }
  // The unmutated seeds are whole graphs: the target reaches the graph checks, not only the parsers.
  mlsys::gnn::GraphOptions o;
  o.sbm.train_fraction = 0.5;
  CHECK(mlsys::gnn::npz_graph(mlsys::NpzArchive::from_bytes(seeds[1], "s"), nullptr, "s", o, 1).num_nodes == 6);
}
