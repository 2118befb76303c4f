// Multi-label graphs: text format (`multilabel 1`, `node c1 c2 ...`), logistic loss per (node,
// class) pair, F1-micro in the accuracy columns, and P workers matching one.
#include <doctest/doctest.h>

#include <cmath>

#include "core/util/error.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;
using mlsys::test::TempDir;
using mlsys::test::write_text;

namespace {

// The tiny text graph (two triangles joined by one edge) with 3 classes: the left triangle has
// {0, 2}, the right {1, 2}; node 2 has no class at all (labeled, all negatives), node 4 is unlabeled.
void write_multilabel_graph(const std::filesystem::path& dir) {
  write_tiny_text_graph(dir);
  write_text(dir / "meta.txt", "dataset tiny-ml\nnodes 6\nfeatures 2\nclasses 3\nmultilabel 1\n");
  write_text(dir / "labels.txt", "0 0 2\n1 0 2\n2\n3 1 2\n5 2 1\n");
  write_text(dir / "split.txt", "0 train\n5 train\n2 train\n1 val\n3 test\n");
}

}  // namespace

TEST_CASE("multi-label text graph: loss per (node, class), F1-micro, P=2 equals P=1") {
  TempDir t;
  write_multilabel_graph(t / "ml");
  Graph g = load_graph_path(t / "ml", "");
  REQUIRE(g.multi_label());
  CHECK(g.multi_labels.size() == 18);
  CHECK(g.multi_labels[0 * 3 + 0] == 1);
  CHECK(g.multi_labels[0 * 3 + 1] == 0);
  CHECK(g.multi_labels[5 * 3 + 1] == 1);
  CHECK(g.labels[2] == 0);   // listed without classes: labeled, all negatives
  CHECK(g.labels[4] == -1);  // not listed: unlabeled
  write_multilabel_graph(t / "bad");
  write_text(t / "bad" / "labels.txt", "0 0 3\n");
  CHECK_THROWS_WITH_AS(load_graph_path(t / "bad", ""), doctest::Contains("labels.txt:1"), InputError);
  CHECK_THROWS_WITH_AS(write_binary_graph(g, t / "g.mlsg"), doctest::Contains("multi-label"), InputError);

  TrainSetup s = quick_setup(1, 150);
  s.gnn.model.hidden = 16;
  s.gnn.model.dropout = 0;
  s.gnn.lr = 0.05;
  s.gnn.weight_decay = 0;
  s.gnn.eval_every = 1;
  TrainResult one = train(g, parts_of(g, 1, "contiguous"), s);
  REQUIRE(one.epochs.size() == 150);
  // Epoch 0's loss is the mean logistic loss over 3 train nodes x 3 classes, near log 2 at init.
  CHECK(std::abs(one.epochs[0].loss - std::log(2.0)) < 0.5);
  CHECK(one.epochs.back().loss < 0.5 * one.epochs[0].loss);
  for (const auto& e : one.epochs) {
    CHECK(e.train_acc >= 0);
    CHECK(e.train_acc <= 1);
  }
  CHECK(one.final_train == doctest::Approx(1.0));  // separable: every train pair right, F1 = 1
  s.gnn.parts = 2;
  TrainResult two = train(g, parts_of(g, 2, "contiguous"), s);
  REQUIRE(two.epochs.size() == 150);
  for (size_t i = 0; i < 150; ++i) {
    CAPTURE(i);
    CHECK(std::abs(one.epochs[i].loss - two.epochs[i].loss) <= 1e-4 * one.epochs[i].loss);
    CHECK(one.epochs[i].train_acc == two.epochs[i].train_acc);
  }
}
