// Low-bit exchange, pipelining, bounded staleness, checkpoints.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <csignal>

#include "core/process/system.hpp"
#include "gnn/train/staleness.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

namespace {
Graph sbm128() {
  SbmParams p = small_sbm(1200);
  p.features = 128;
  return generate_sbm(p, 11);
}
TrainSetup sylvie(int bits, bool pipeline, int epochs = 6) {
  TrainSetup s = quick_setup(4, epochs);
  s.gnn.model.hidden = 128;
  s.gnn.model.layers = 3;
  s.gnn.model.aggregate_first = true;
  s.gnn.model.precompute_first = true;
  s.gnn.fwd_bits = bits;
  s.gnn.bwd_bits = bits;
  s.gnn.pipeline = pipeline;
  return s;
}
uint64_t wire(const TrainResult& r) {
  uint64_t w = 0;
  for (const auto& e : r.epochs) w += e.mean.wire_bytes;
  return w;
}
}  // namespace

TEST_CASE("1-bit halo traffic at hidden 128 is >= 25x smaller than fp32 (run counters, metadata included)") {
  Graph g = sbm128();
  auto owner = parts_of(g, 4);
  TrainResult fp32 = train(g, owner, sylvie(32, false));
  TrainResult one = train(g, owner, sylvie(1, false));
  const double ratio = double(wire(fp32)) / double(wire(one));
  MESSAGE("fp32 wire " << wire(fp32) << " B, 1-bit wire " << wire(one) << " B, ratio " << ratio);
  CHECK(ratio >= 25.0);
  CHECK(ratio < 32.0);  // metadata is really counted
  uint64_t raw = 0;
  for (const auto& e : fp32.epochs) raw += e.mean.raw_bytes;
  CHECK(raw == wire(fp32));
  for (int bits : {2, 4, 8}) {
    CAPTURE(bits);
    TrainResult r = train(g, owner, sylvie(bits, false, 3));
    CHECK(r.epochs.back().fwd_bits == bits);
    CHECK(std::isfinite(r.epochs.back().loss));
  }
}

TEST_CASE("pipelining: epoch 0 fresh, later epochs stale, bound K forces fresh epochs") {
  Graph g = sbm128();
  auto owner = parts_of(g, 4);
  TrainSetup s = sylvie(1, true, 12);
  s.gnn.staleness.bound = 5;
  TrainResult r = train(g, owner, s);
  REQUIRE(r.epochs.size() == 12);
  for (const auto& e : r.epochs) {
    CAPTURE(e.epoch);
    CHECK(e.stale == (e.epoch % 5 != 0));
  }
  CHECK(r.epochs.back().loss < r.epochs.front().loss);
  // Without a bound, only epoch 0 is fresh.
  s.gnn.staleness.bound = 0;
  TrainResult u = train(g, owner, s);
  for (const auto& e : u.epochs) CHECK(e.stale == (e.epoch != 0));
}

TEST_CASE("staleness.fresh_bits: a pipelined run's fresh epochs use the wider width, stale ones their own") {
  StalenessOptions c;
  c.bound = 3;
  c.fresh_bits = 8;
  StalenessAdaptor a(c, 1, 2, /*pipeline=*/true, /*exchanging=*/true);
  for (int e = 0; e < 9; ++e) {
    CAPTURE(e);
    const EpochPlan p = a.plan(e);
    CHECK(p.stale == (e % 3 != 0));
    CHECK(p.fwd_bits == (p.stale ? 1 : 8));
    CHECK(p.bwd_bits == (p.stale ? 2 : 8));
  }
  // Without pipelining every epoch is fresh and keeps the configured widths: fresh_bits is about
  // the fresh epochs among stale ones.
  StalenessAdaptor sync(c, 1, 1, /*pipeline=*/false, /*exchanging=*/true);
  for (int e = 0; e < 4; ++e) CHECK(sync.plan(e).fwd_bits == 1);
  // A fresh width narrower than the epoch's own changes nothing.
  c.fresh_bits = 2;
  StalenessAdaptor narrow(c, 4, 4, /*pipeline=*/true, /*exchanging=*/true);
  CHECK(narrow.plan(0).fwd_bits == 4);
}

TEST_CASE("staleness.fresh_bits names the key when the codec table has no such width") {
  Graph g = sbm128();
  TrainSetup s = sylvie(1, true, 2);
  s.gnn.staleness.fresh_bits = 3;
  try {
    train(g, parts_of(g, 4), s);
    FAIL("fresh_bits = 3 was accepted");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("staleness.fresh_bits = 3") != std::string::npos);
  }
}

TEST_CASE("pipelined 1-bit training converges like fp32 on a learnable SBM") {
  SbmParams p = small_sbm(3000);
  p.features = 32;
  Graph g = generate_sbm(p, 5);
  auto owner = parts_of(g, 4);
  TrainSetup s = quick_setup(1, 60);
  s.gnn.model.hidden = 64;
  s.gnn.model.dropout = 0.2;
  TrainResult ref = train(g, parts_of(g, 1), s);
  s.gnn.parts = 4;
  s.gnn.fwd_bits = s.gnn.bwd_bits = 1;
  s.gnn.pipeline = true;
  TrainResult low = train(g, owner, s);
  MESSAGE("fp32 single " << ref.final_test << ", 1-bit pipelined x4 " << low.final_test);
  CHECK(ref.final_test > 0.6);
  CHECK(low.final_test >= ref.final_test - 0.02);
}

TEST_CASE("1-bit pipelined GCN and GraphSAGE: no seed more than 3 points below fp32, no loss climbing back") {
  // The seed-to-seed failure of #12 (a run at 35% where fp32 reached 100%) showed up only on some
  // seeds: three seeds per architecture, each against single-worker fp32 on the same seed.
  SbmParams p = small_sbm(1200);
  p.features = 24;
  p.feature_signal = 0.2;
  for (std::string arch : {"gcn", "sage"}) {
    for (uint64_t seed : {1, 2, 3}) {
      Graph g = generate_sbm(p, seed);
      TrainSetup s = quick_setup(1, 40);
      s.seed = seed;
      s.gnn.model.arch = arch;
      s.gnn.model.hidden = 32;
      s.gnn.model.dropout = 0.2;
      s.gnn.eval_every = 5;  // the evaluation pass's train loss (no dropout) every 5 epochs
      TrainResult ref = train(g, parts_of(g, 1), s);
      s.gnn.parts = 4;
      s.gnn.fwd_bits = s.gnn.bwd_bits = 1;
      s.gnn.pipeline = true;
      TrainResult low = train(g, parts_of(g, 4), s);
      double min_loss = low.epochs.front().loss;
      for (const auto& e : low.epochs) min_loss = std::min(min_loss, e.loss);
      INFO(arch << " seed " << seed << ": fp32 x1 " << ref.final_test << ", 1-bit pipelined x4 " << low.final_test
                << ", final loss " << low.epochs.back().loss << " (min " << min_loss << ", fp32 " << ref.epochs.back().loss << ")");
      CHECK(ref.final_test > 0.5);
      CHECK(low.final_test >= ref.final_test - 0.03);
      // Dropout makes even fp32's last loss wander up to ~13% above its minimum on this small
      // graph; the failure this guards against (1-bit loss climbing back to chance) is caught
      // against fp32's final loss on the same seed.
      CHECK(low.epochs.back().loss <= 1.1 * ref.epochs.back().loss);
      // The issue's own criterion, on the loss without dropout: the last evaluated train loss is
      // within 10% of the lowest one (evaluated at epochs 4, 9, ..., 39).
      for (const TrainResult* r : {&ref, &low}) {
        double last = -1, lowest = -1;
        int evaluated = 0;
        for (const auto& e : r->epochs)
          if (e.eval_loss >= 0) {
            ++evaluated;
            last = e.eval_loss;
            lowest = lowest < 0 ? last : std::min(lowest, last);
          }
        INFO("evaluation-pass train loss: last " << last << ", lowest " << lowest);
        CHECK(evaluated == 8);
        CHECK(last <= 1.1 * lowest);
      }
    }
  }
}

TEST_CASE("adaptive staleness escalates bits on a stalled loss and relaxes on a falling one") {
  StalenessOptions c;
  c.adaptive = true;
  c.window = 3;
  c.tolerance = 0.01;
  c.cooldown = 3;
  c.hold = 5;
  StalenessAdaptor a(c, 1, 1, /*pipeline=*/true, /*exchanging=*/true);
  int e = 0;
  CHECK_FALSE(a.plan(e).stale);  // epoch 0 fresh
  for (; e < 20 && a.switches().empty(); ++e) {
    if (e > 0) a.plan(e);
    a.observe(e, 1.0);  // flat loss: stalled
  }
  REQUIRE_FALSE(a.switches().empty());
  CHECK(a.switches()[0].epoch == 3);  // needs a full window of history
  CHECK(a.switches()[0].what == "escalate");
  CHECK(a.switches()[0].fwd_to == 2);
  EpochPlan next = a.plan(e++);
  CHECK_FALSE(next.stale);  // escalation forces a fresh epoch
  CHECK(next.fwd_bits == 2);
  double loss = 1.0;
  size_t before = a.switches().size();
  for (int i = 0; i < 12; ++i, ++e) {
    a.plan(e);
    loss *= 0.8;  // falling steadily
    a.observe(e, loss);
  }
  REQUIRE(a.switches().size() > before);
  CHECK(a.switches().back().what == "relax");
  CHECK(a.plan(e).fwd_bits == 1);  // never below the configured width
}

TEST_CASE("adaptive staleness settles: cool-down and a doubling hold stop the 1 to 2 bit flip-flop") {
  // The loss pattern that made the old adaptor switch every 5 epochs: it stalls at 1 bit and
  // falls right after each escalation. Each switch must carry the trend that triggered it.
  StalenessOptions c;
  c.adaptive = true;
  c.window = 5;
  c.tolerance = 0.002;
  StalenessAdaptor a(c, 1, 1, /*pipeline=*/true, /*exchanging=*/true);
  double loss = 1.0;
  for (int e = 0; e < 100; ++e) {
    const EpochPlan p = a.plan(e);
    loss *= p.fwd_bits > 1 ? 0.97 : 1.0;  // falls at 2 bits, stalls at 1 bit
    a.observe(e, loss);
  }
  REQUIRE_FALSE(a.switches().empty());
  CHECK(a.switches().size() <= 3);
  for (size_t i = 0; i < a.switches().size(); ++i) {
    const Switch& sw = a.switches()[i];
    if (sw.what == "escalate") CHECK(sw.trend < sw.threshold);
    else CHECK(sw.trend > sw.threshold);
    if (i > 0) CHECK(sw.epoch - a.switches()[i - 1].epoch >= c.cooldown);
  }
}

TEST_CASE("checkpoint + resume continues exactly where the run stopped") {
  mlsys::test::TempDir t;
  Graph g = generate_sbm(small_sbm(500), 2);
  auto owner = parts_of(g, 2);
  TrainSetup s = quick_setup(2, 10);
  s.gnn.fwd_bits = s.gnn.bwd_bits = 32;
  TrainResult full = train(g, owner, s);
  s.out_dir = t.path().string();
  s.gnn.epochs = 5;
  TrainResult first = train(g, owner, s);
  REQUIRE(!first.checkpoint.empty());
  s.gnn.epochs = 10;
  s.gnn.resume = first.checkpoint;
  TrainResult rest = train(g, owner, s);
  REQUIRE(rest.epochs.size() == 10);
  CHECK(rest.start_epoch == 5);
  for (size_t i = 0; i < 10; ++i) {
    CAPTURE(i);
    CHECK(rest.epochs[i].loss == doctest::Approx(full.epochs[i].loss).epsilon(1e-5));
  }
  s.gnn.model.arch = "sage";
  CHECK_THROWS_AS(train(g, owner, s), InputError);  // checkpoint of another model
}

TEST_CASE("resume refuses a checkpoint of another graph, partition, model or seed (run fingerprint)") {
  mlsys::test::TempDir t;
  Graph g = generate_sbm(small_sbm(500), 2);
  auto owner = parts_of(g, 2);
  TrainSetup s = quick_setup(2, 3);
  s.out_dir = t.path().string();
  const std::string ck = train(g, owner, s).checkpoint;
  REQUIRE(!ck.empty());
  s.gnn.epochs = 5;
  s.gnn.resume = ck;
  s.out_dir.clear();
  CHECK(train(g, owner, s).start_epoch == 3);  // the same run resumes
  auto refused = [&](const Graph& g2, const std::vector<int32_t>& o2, const TrainSetup& s2, const std::string& part) {
    try {
      train(g2, o2, s2);
      FAIL("resumed a checkpoint whose " << part << " differs");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(part + ": checkpoint") != std::string::npos);
    }
  };
  Graph other = generate_sbm(small_sbm(500), 3);  // same shape and model, other graph
  refused(other, owner, s, "graph");
  refused(g, parts_of(g, 2, "random"), s, "partition");
  TrainSetup other_model = s;
  other_model.gnn.model.aggregate_first = !s.gnn.model.aggregate_first;  // same parameters, another model
  refused(g, owner, other_model, "model");
  TrainSetup seeded = s;
  seeded.seed = s.seed + 1;
  refused(g, owner, seeded, "seed");
}

TEST_CASE("a checkpoint that cannot be written is a warning: training runs to the end") {
  mlsys::test::TempDir t;
  Graph g = generate_sbm(small_sbm(400), 2);
  TrainSetup s = quick_setup(1, 6);
  s.gnn.checkpoint_every = 2;
  s.out_dir = t.path().string();
  std::filesystem::create_directories(t / "checkpoint.bin" / "in-the-way");  // every write of the file fails
  TrainResult r = train(g, parts_of(g, 1), s);
  CHECK(r.epochs.size() == 6);
  CHECK(r.failed_checkpoints == 3);  // after epochs 2 and 4 and the final one
  CHECK(r.checkpoint.empty());
  CHECK(r.final_test >= 0);
}

TEST_CASE("SIGINT writes a checkpoint and stops after the current epoch") {
  mlsys::test::TempDir t;
  Graph g = generate_sbm(small_sbm(400), 2);
  auto owner = parts_of(g, 2);
  TrainSetup s = quick_setup(2, 50);
  s.out_dir = t.path().string();
  install_interrupt_handler();
  s.on_epoch = [](const EpochRecord& r) {
    if (r.epoch == 3) std::raise(SIGINT);
  };
  TrainResult r = train(g, owner, s);
  clear_interrupt();
  CHECK(r.interrupted);
  CHECK(r.epochs.size() == 5);  // the flag is read at the end of epoch 4 (every rank agrees first)
  CHECK(std::filesystem::exists(t / "checkpoint.bin"));
}
