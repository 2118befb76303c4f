#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "gnn/model/architecture.hpp"
#include "tests/common/test_util.hpp"
#include "tests/gnn/gnn_test_util.hpp"
#include "tests/gnn/train/partitioned_check.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

TEST_CASE("P workers at 32 bits without pipelining match one worker's loss curve to 1e-4") {
  Graph g = generate_sbm(small_sbm(800), 3);
  for (const std::string& arch : architecture_registry().names()) {  // every registered architecture
    CAPTURE(arch);
    TrainResult four = check_partitioned_matches_one(g, arch_setup(1, 15, arch), 4);
    CHECK(four.epochs.back().mean.wire_bytes > 0);
  }
}

TEST_CASE("optim.schedule: cosine trains epoch 0 at the base rate and smaller steps after") {
  Graph g = generate_sbm(small_sbm(800), 3);
  TrainSetup s = quick_setup(1, 10);
  s.gnn.model.dropout = 0;
  TrainResult constant = train(g, parts_of(g, 1), s);
  s.gnn.lr_schedule = "cosine";
  TrainResult cosine = train(g, parts_of(g, 1), s);
  auto a = losses(constant), b = losses(cosine);
  REQUIRE(a.size() == 10);
  REQUIRE(b.size() == 10);
  // Epoch 0's step uses factor 1, so epoch 1 starts from the same weights; from epoch 1's step on
  // the rate is lower and the curves part.
  CHECK(a[0] == b[0]);
  CHECK(a[1] == b[1]);
  CHECK(a[2] != b[2]);
  CHECK(b.back() < b.front());
}

namespace {

// Runs s with one model shared by the in-process workers and with a replica each: every epoch's
// training loss, evaluation loss and validation accuracy must be the same bits.
void check_shared_matches_replicas(const Graph& g, const std::vector<int32_t>& owner, TrainSetup s) {
  s.share_model = false;
  TrainResult replicas = train(g, owner, s);
  s.share_model = true;
  TrainResult shared = train(g, owner, s);
  REQUIRE(replicas.epochs.size() == static_cast<size_t>(s.gnn.epochs));
  REQUIRE(shared.epochs.size() == replicas.epochs.size());
  for (size_t i = 0; i < shared.epochs.size(); ++i) {
    CAPTURE(i);
    CHECK(shared.epochs[i].loss == replicas.epochs[i].loss);
    CHECK(shared.epochs[i].eval_loss == replicas.epochs[i].eval_loss);
    CHECK(shared.epochs[i].val_acc == replicas.epochs[i].val_acc);
  }
  CHECK(replicas.epochs.back().loss < replicas.epochs[static_cast<size_t>(replicas.start_epoch)].loss);  // it trains
}

}  // namespace

TEST_CASE("share_model: in-process workers sharing rank 0's parameters train bit-identically to a replica each") {
  mlsys::test::TempDir t;
  Graph g = generate_sbm(small_sbm(600), 3);
  const auto owner = parts_of(g, 4);
  for (const std::string& arch : architecture_registry().names()) {
    CAPTURE(arch);
    TrainSetup s = arch_setup(4, 8, arch);
    s.gnn.fwd_bits = s.gnn.bwd_bits = 1;
    s.gnn.pipeline = true;
    s.gnn.eval_every = 2;
    check_shared_matches_replicas(g, owner, s);
    // Resuming from a checkpoint: rank 0 loads the values the others read, and the optimizer state
    // the others loaded goes; the rest of the run matches a resume with a replica each.
    s.out_dir = (t / arch).string();
    std::filesystem::create_directories(s.out_dir);
    s.gnn.epochs = 4;
    TrainResult first = train(g, owner, s);
    REQUIRE(!first.checkpoint.empty());
    s.gnn.epochs = 8;
    s.gnn.resume = first.checkpoint;
    s.out_dir.clear();
    check_shared_matches_replicas(g, owner, s);
  }
}
