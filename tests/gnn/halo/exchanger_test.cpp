// The halo exchanger on 3 inproc workers: forward brings every halo row from its owner, backward
// adds every peer's halo gradient into the owner's row, a stale epoch uses what the previous epoch
// sent, and the counters see the codec's wire bytes.
#include "gnn/halo/exchanger.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "core/comm/factory.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

namespace {

constexpr int64_t kF = 3;

// Row of node v in "epoch" e: a value only v and e determine, so a receiver knows what to expect.
float value(int32_t v, int e, int64_t c) { return static_cast<float>(v) + 0.25f * static_cast<float>(c) + 1000.0f * e; }

Tensor owned_rows(const HaloPlan& plan, int e) {
  Tensor t = Tensor::empty({plan.num_owned(), kF});
  for (int64_t i = 0; i < plan.num_owned(); ++i)
    for (int64_t c = 0; c < kF; ++c) t.data<float>()[i * kF + c] = value(plan.owned[i], e, c);
  return t;
}

// Runs `fn(plan, engine)` on every rank of `parts` inproc workers over a random partition of a
// 200-node SBM (each rank has halo rows).
template <class Fn>
void on_ranks(int parts, Fn fn) {
  Graph g = generate_sbm(gnntest::small_sbm(200), 6);
  auto owner = gnntest::parts_of(g, parts, "random");
  CommOptions co;
  co.world_size = parts;
  comm::run_ranks(co, [&](comm::Communicator& c) {
    const HaloPlan plan = build_halo_plan(g, owner, parts, c.rank());
    REQUIRE(plan.num_halo() > 0);
    comm::ProgressEngine engine(c);
    fn(plan, engine);
  });
}

}  // namespace

TEST_CASE("exchanger: fp32 forward fills halos, backward adds peers' gradients, stale epochs lag by one") {
  const int parts = 3;
  on_ranks(parts, [&](const HaloPlan& plan, comm::ProgressEngine& engine) {
    Exchanger ex(engine, cpu_context(), plan, 5, HaloOptions{});
    HaloCounters counters;
    auto check_halo = [&](const Tensor& ext, int e) {
      bool ok = true;
      for (int64_t h = 0; h < plan.num_halo(); ++h)
        for (int64_t c2 = 0; c2 < kF; ++c2)
          ok &= ext.data<float>()[(plan.num_owned() + h) * kF + c2] == value(plan.halo[h], e, c2);
      return ok;
    };
    // Synchronous epoch 0 at 32 bits: exact halo rows.
    ex.begin_epoch(0, false, 32, 32, &counters);
    Tensor ext = ex.forward(0, owned_rows(plan, 0));
    REQUIRE(ext.dim(0) == plan.num_local());
    CHECK(check_halo(ext, 0));
    CHECK(counters.wire_bytes == counters.raw_bytes);  // fp32: nothing saved
    CHECK(counters.raw_bytes == static_cast<uint64_t>(plan.total_send_rows() * kF * 4));
    // Backward: every local row carries gradient 1, so an owned row gains one per peer that holds it as a halo.
    Tensor gext = Tensor::empty({plan.num_local(), kF});
    for (int64_t i = 0; i < gext.numel(); ++i) gext.data<float>()[i] = 1.0f;
    Tensor gown = ex.backward(0, gext);
    std::vector<int> holders(static_cast<size_t>(plan.num_owned()), 0);
    for (int q = 0; q < parts; ++q)
      for (int32_t row : plan.send_rows[q]) ++holders[static_cast<size_t>(row)];
    bool sums = true;
    for (int64_t i = 0; i < plan.num_owned(); ++i) sums &= gown.data<float>()[i * kF] == 1.0f + holders[static_cast<size_t>(i)];
    CHECK(sums);
    // Stale epoch 1: the halo rows are epoch 0's; this epoch's arrive for the next one.
    ex.begin_epoch(1, true, 32, 32, &counters);
    CHECK(check_halo(ex.forward(0, owned_rows(plan, 1)), 0));
    ex.begin_epoch(2, true, 32, 32, &counters);
    CHECK(check_halo(ex.forward(0, owned_rows(plan, 2)), 1));
    ex.drain();
    // 1 bit per value plus per-row metadata (4 bytes at fp16): under half of fp32's 12 bytes a row.
    HaloCounters low;
    ex.begin_epoch(3, false, 1, 1, &low);
    ex.forward(0, owned_rows(plan, 3));
    CHECK(low.raw_bytes == static_cast<uint64_t>(plan.total_send_rows() * kF * 4));
    CHECK(2 * low.wire_bytes < low.raw_bytes);
  });
}

TEST_CASE("exchanger smoothing: stale epochs use the moving average of arrivals, synchronous ones the exact rows") {
  on_ranks(2, [&](const HaloPlan& plan, comm::ProgressEngine& engine) {
    HaloOptions o;
    o.smoothing = 0.75;
    Exchanger ex(engine, cpu_context(), plan, 5, o);
    // Halo row h, column c after the given epochs: the rows are value(v, e, c).
    auto halo_value = [&](const Tensor& ext, int64_t h, int64_t col) { return ext.data<float>()[(plan.num_owned() + h) * kF + col]; };
    ex.begin_epoch(0, false, 32, 32, nullptr);
    Tensor e0 = ex.forward(0, owned_rows(plan, 0));
    ex.begin_epoch(1, true, 32, 32, nullptr);
    Tensor e1 = ex.forward(0, owned_rows(plan, 1));  // epoch 0's rows (the average holds only them)
    ex.begin_epoch(2, true, 32, 32, nullptr);
    Tensor e2 = ex.forward(0, owned_rows(plan, 2));  // 0.75 * epoch 0 + 0.25 * epoch 1
    ex.begin_epoch(3, false, 32, 32, nullptr);
    Tensor e3 = ex.forward(0, owned_rows(plan, 3));  // synchronous: exact
    ex.begin_epoch(4, true, 32, 32, nullptr);
    Tensor e4 = ex.forward(0, owned_rows(plan, 4));  // the average went on: 0.75 * (e2's average) + 0.25 * epoch 3
    bool exact = true, averaged = true;
    for (int64_t h = 0; h < plan.num_halo(); ++h)
      for (int64_t col = 0; col < kF; ++col) {
        const int32_t v = plan.halo[h];
        exact &= halo_value(e0, h, col) == value(v, 0, col) && halo_value(e1, h, col) == value(v, 0, col) &&
                 halo_value(e3, h, col) == value(v, 3, col);
        const double m2 = 0.75 * value(v, 0, col) + 0.25 * value(v, 1, col);
        const double m3 = 0.75 * m2 + 0.25 * value(v, 3, col);  // epoch 3's exact rows joined the average
        averaged &= std::abs(halo_value(e2, h, col) - m2) < 1e-3 * std::abs(m2) + 1e-3;
        averaged &= std::abs(halo_value(e4, h, col) - m3) < 1e-3 * std::abs(m3) + 1e-3;
      }
    CHECK(exact);
    CHECK(averaged);
    ex.drain();
  });
}

TEST_CASE("exchanger smooth_fresh: a synchronous epoch uses the average its exact rows have joined") {
  on_ranks(2, [&](const HaloPlan& plan, comm::ProgressEngine& engine) {
    HaloOptions o;
    o.smoothing = 0.75;
    o.smooth_fresh = true;
    Exchanger ex(engine, cpu_context(), plan, 5, o);
    auto halo_value = [&](const Tensor& ext, int64_t h, int64_t col) { return ext.data<float>()[(plan.num_owned() + h) * kF + col]; };
    ex.begin_epoch(0, false, 32, 32, nullptr);
    Tensor e0 = ex.forward(0, owned_rows(plan, 0));  // the average starts as epoch 0's rows
    ex.begin_epoch(1, true, 32, 32, nullptr);
    ex.forward(0, owned_rows(plan, 1));
    ex.begin_epoch(2, false, 32, 32, nullptr);
    Tensor e2 = ex.forward(0, owned_rows(plan, 2));  // synchronous: 0.75 * epoch 0 + 0.25 * epoch 2
    bool first = true, averaged = true;
    for (int64_t h = 0; h < plan.num_halo(); ++h)
      for (int64_t col = 0; col < kF; ++col) {
        const int32_t v = plan.halo[h];
        first &= halo_value(e0, h, col) == value(v, 0, col);
        // Epoch 1's rows were still in flight at the synchronous epoch: drained, not averaged in.
        const double m = 0.75 * value(v, 0, col) + 0.25 * value(v, 2, col);
        averaged &= std::abs(halo_value(e2, h, col) - m) < 1e-3 * std::abs(m) + 1e-3;
      }
    CHECK(first);
    CHECK(averaged);
    ex.drain();
  });
}
