// Cora (Planetoid split) accuracies: 2-layer, hidden 16, dropout 0.5, lr 0.01, weight decay 5e-4,
// 200 epochs, mean of 5 seeds. Skips without MLSYS_DATA_DIR.
#include <doctest/doctest.h>

#include "gnn/graph/loaders.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

namespace {

double mean_test_acc(const Graph& g, const std::string& arch, int parts, int bits, bool pipeline) {
  double sum = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    TrainSetup s = quick_setup(parts, 200);
    s.seed = seed;
    s.gnn.model.arch = arch;
    s.gnn.model.hidden = 16;
    s.gnn.model.dropout = 0.5;
    s.gnn.lr = 0.01;
    s.gnn.weight_decay = 5e-4;
    s.gnn.eval_every = 200;
    s.gnn.graph.normalize_features = true;
    s.gnn.decay_first_layer_only = true;
    s.gnn.fwd_bits = bits;
    s.gnn.bwd_bits = bits;
    s.gnn.pipeline = pipeline;
    TrainResult r = train(g, parts_of(g, parts, "metis", seed), s);
    sum += r.final_test;
  }
  double m = sum / 5;
  MESSAGE(arch << " parts=" << parts << " bits=" << bits << " pipeline=" << pipeline << ": mean test acc " << 100 * m << "%");
  return m;
}

}  // namespace

TEST_CASE("Cora GCN: fp32 single worker >= 80.5%, 4 METIS parts 1-bit pipelined >= 79.5%") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  Graph g = load_text_graph(data / "graphs" / "cora");
  CHECK(mean_test_acc(g, "gcn", 1, 32, false) >= 0.805);
  CHECK(mean_test_acc(g, "gcn", 4, 1, true) >= 0.795);
}

TEST_CASE("Cora GraphSAGE: 4 METIS parts 1-bit pipelined within 1 point of fp32") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  Graph g = load_text_graph(data / "graphs" / "cora");
  double fp32 = mean_test_acc(g, "sage", 1, 32, false);
  double low = mean_test_acc(g, "sage", 4, 1, true);
  CHECK(low >= fp32 - 0.01);
}
