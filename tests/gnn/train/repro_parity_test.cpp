// The Sylvie reproduction's parity check can fail (#28): on the reproduction graph
// (configs/repro/sylvie/base.yaml), scaled down, fp32 stays at least 3 points below the
// label-noise ceiling, so accuracy there is limited by what the model can learn, not capped; the
// real 1-bit codec passes the parity check against fp32 and a deliberately broken 1-bit codec
// (defined here, never registered in the product) fails it.
//
// Why this test is not vacuous: every number it checks is measured on this run, and each check
// can go either way. (a) fails if the graph becomes easy again (fp32 at the ceiling, as the 6%
// label noise alone gave: 93.90 on every seed, where no codec could lose). (b) fails if the
// parity rule is too loose to see a codec whose rows come back at the wrong scale, or so tight
// that the real codec's noise fails it; the broken codec runs the same configuration, seeds and
// code path as sr1 (it replaces sr1 in make_codec for its run), so the only difference between
// the two 1-bit rows is the codec. The checks read the test split; every setting here and in
// the configs was chosen on the validation split.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/config/resolve.hpp"
#include "core/quant/codec_override.hpp"
#include "gnn/graph/source.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

namespace {

// The reproduction's parity rule (scripts/repro/sylvie.sh, docs/train-gnn.md "Paper
// reproduction"; the accuracy study uses the same limits): a 1-bit row's mean test accuracy is
// at most 1 point below fp32 synchronous's mean, and no seed is more than 3 points below it.
constexpr double kMeanLimit = 1.0, kSeedLimit = 3.0;
// The property the reproduction graph must have: fp32 at least this far below the ceiling.
constexpr double kCeilingGap = 3.0;

// The reproduction, scaled to a test: the committed configs' graph settings (homophily, feature
// signal, label noise, 602 features, 41 classes) with these overrides. The graph keeps the full
// reproduction's 4,659 nodes (its 24% test split, ~1,100 nodes, keeps the parity noise of the real
// codec well inside 1 point); the model and the schedule are smaller.
const std::vector<std::string> kScaled = {
    "gnn.epochs=40",        "gnn.model.layers=2",         "gnn.model.hidden=64", "gnn.halo.fp32_warmup=3",
    "gnn.eval_every=40",    "comm.link_sleep=false",
};
constexpr uint64_t kSeeds[] = {1, 2, 3};

TrainSetup repro_setup(const std::string& file, uint64_t seed) {
  std::vector<std::string> sets = kScaled;
  auto cfg = config::resolve({&gnn_section(), &comm_section()},
                             {(test::source_dir() / "configs/repro/sylvie" / file).string()}, sets);
  TrainSetup s;
  s.gnn = cfg.get(gnn_section());
  s.comm = cfg.get(comm_section());
  s.seed = seed;
  s.threads = 1;
  return s;
}

Graph repro_graph(const GraphOptions& o, uint64_t seed) { return graph_source_registry().create(o.source)->load(o, seed); }

// The split the checks read: test, as the reproduction reports it. The scaled settings and the
// broken codec were chosen with kSplit = Split::Val (validation, seeds 1-3: fp32 87.72 against a
// ceiling of 94.83, sr1 87.57 with its worst seed at 85.00, broken 82.73).
constexpr Split kSplit = Split::Test;
double accuracy(const TrainResult& r) { return 100 * (kSplit == Split::Test ? r.final_test : r.final_val); }

// The label-noise ceiling of the test split: the share of its nodes whose label is still their
// true class (the class their edges and features were drawn from), measured on the graph itself.
double ceiling(GraphOptions o, uint64_t seed, const Graph& noisy) {
  o.sbm.label_noise = 0;
  const Graph clean = repro_graph(o, seed);
  int64_t test = 0, kept = 0;
  for (int64_t v = 0; v < noisy.num_nodes; ++v)
    if (noisy.split[v] == static_cast<uint8_t>(kSplit)) {
      ++test;
      kept += noisy.labels[v] == clean.labels[v];
    }
  return 100.0 * double(kept) / double(test);
}

// The broken codec: the real sr1 whose decoder puts every row back at 16 times its range around
// the row's minimum (a scale off by a factor 2^4, as a wrong exponent in the row's metadata would
// give). It stands in for sr1 through quant::CodecOverride for the length of one run. Milder
// defects pass the parity check on this task; the docs list the ones measured (docs/train-gnn.md,
// "Paper reproduction"): the evaluation pass exchanges exact fp32 halos, so a codec changes the
// accuracy only through the weights it trains, and those tolerate even flipped or misrouted rows.
class ScaleBugSr1 final : public quant::Codec {
 public:
  explicit ScaleBugSr1(std::unique_ptr<quant::Codec> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  int bits() const override { return inner_->bits(); }
  bool stochastic() const override { return inner_->stochastic(); }
  quant::Impl impl() const override { return inner_->impl(); }
  size_t wire_bytes(size_t rows, size_t cols) const override { return inner_->wire_bytes(rows, cols); }
  void encode(const float* x, size_t rows, size_t cols, uint64_t seed, uint8_t* out) const override {
    inner_->encode(x, rows, cols, seed, out);
  }
  void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const override {
    inner_->decode(in, rows, cols, out);
    for (size_t r = 0; r < rows; ++r) {
      float* row = out + r * cols;
      const float mn = *std::min_element(row, row + cols);
      for (size_t c = 0; c < cols; ++c) row[c] = mn + 16.0f * (row[c] - mn);
    }
  }

 private:
  std::unique_ptr<quant::Codec> inner_;
};

struct Row {
  std::vector<double> acc;  // test %, per seed
  double mean() const {
    double s = 0;
    for (double a : acc) s += a;
    return s / double(acc.size());
  }
  double worst() const { return *std::min_element(acc.begin(), acc.end()); }
};

bool parity(const Row& fp32, const Row& low) {
  return low.mean() >= fp32.mean() - kMeanLimit && low.worst() >= fp32.mean() - kSeedLimit;
}

}  // namespace

TEST_CASE("Sylvie reproduction graph: fp32 below the label-noise ceiling, parity passes for sr1 and fails for a broken codec") {
  Row fp32, sr1, broken;
  double ceiling_sum = 0;
  for (uint64_t seed : kSeeds) {
    const TrainSetup f = repro_setup("gcn_fp32_sync.yaml", seed), q = repro_setup("gcn_1bit_pipeline.yaml", seed);
    const Graph g = repro_graph(f.gnn.graph, seed);
    const double top = ceiling(f.gnn.graph, seed, g);
    ceiling_sum += top;
    const auto owner = gnntest::parts_of(g, f.gnn.parts);
    fp32.acc.push_back(accuracy(train(g, owner, f)));
    sr1.acc.push_back(accuracy(train(g, owner, q)));
    {
      quant::CodecOverride bug("sr1", [](const quant::CodecRegistry::Factory& registered, const quant::CodecParams& p) {
        return std::make_unique<ScaleBugSr1>(registered(p));
      });
      broken.acc.push_back(accuracy(train(g, owner, q)));
    }
    MESSAGE("seed " << seed << ": ceiling " << top << ", fp32 " << fp32.acc.back() << ", sr1 " << sr1.acc.back()
                    << ", broken sr1 " << broken.acc.back());
  }
  const double top = ceiling_sum / double(std::size(kSeeds));
  MESSAGE("mean: ceiling " << top << ", fp32 " << fp32.mean() << ", sr1 " << sr1.mean() << " (worst " << sr1.worst()
                           << "), broken sr1 " << broken.mean() << " (worst " << broken.worst() << ")");
  // (a) The graph does not cap fp32: accuracy is limited by what the model learns, so a codec that
  // loses information can show it.
  CHECK(fp32.mean() <= top - kCeilingGap);
  // (b) The parity check tells the real codec from a broken one.
  CHECK(parity(fp32, sr1));
  CHECK_FALSE(parity(fp32, broken));
}
