// Fuzz target: the binary graph format (.mlsg, gnn/graph/loaders.hpp: train-gnn's cache and
// `train-gnn convert` output) from arbitrary bytes: the header, section sizes against the file,
// and the graph's checks (finite features, split bytes, ids in range). Bad input is an
// mlsys::Error naming the file; anything else is a finding.
#include "core/util/error.hpp"
#include "gnn/graph/loaders.hpp"
#include "tests/fuzz/fuzz_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(mlsg) {
  const std::string path = mlsys::fuzz::input_file("fuzz.mlsg", data, size);
  try {
    (void)mlsys::gnn::map_binary_graph(path);
  } catch (const mlsys::Error&) {
  }
  return 0;
}
