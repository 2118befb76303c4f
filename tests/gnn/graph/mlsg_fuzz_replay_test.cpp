// Replays the .mlsg fuzz target (tests/fuzz/fuzz_mlsg.cpp) on binary graphs written here and on
// seeded mutations of them, so the target runs in the normal ctest.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_mlsg.cpp"

#include "core/util/fs.hpp"
#include "gnn/graph/generators.hpp"
#include "tests/common/fuzz_replay.hpp"
#include "tests/common/test_util.hpp"

TEST_CASE("fuzz replay: .mlsg graphs and their mutations are mapped or refused") {
  mlsys::test::TempDir dir("mlsg_fuzz");
  mlsys::gnn::SbmParams p;
  p.nodes = 200;
  p.classes = 3;
  p.features = 4;
  p.avg_degree = 3;
  const auto path = dir / "g.mlsg";
  mlsys::gnn::write_binary_graph(mlsys::gnn::generate_sbm(p, 1), path, 7);
  mlsys::test::replay_fuzz_target(fuzz_mlsg, {mlsys::read_file(path)}, 5, 400);
}
