// The explicit backward of the GNN stacks against finite differences, with dropout on: on the host
// the masks are regenerated in backward (never stored) and the dropped input is formed block by
// block inside the products, so this checks that path's weight and input gradients.
#include <doctest/doctest.h>

#include <cmath>

#include "core/comm/factory.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "core/util/random.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/model/model.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

namespace {

struct Variant {
  const char* arch;
  bool aggregate_first, residual, layer_norm;
  int hidden;
};

void check_variant(comm::Communicator& c, const Graph& g, const HaloPlan& plan, const Variant& v) {
  DeviceContext& ctx = cpu_context();
  const LocalGraph lg = build_local_graph(ctx, plan, architecture(v.arch)->adjacency());
  comm::ProgressEngine engine(c);
  Exchanger ex(engine, ctx, plan, 1, HaloOptions{});
  ex.begin_epoch(0, false, 32, 32, nullptr);
  ModelOptions mo;
  mo.arch = v.arch;
  mo.layers = 3;
  mo.hidden = v.hidden;
  mo.heads = 2;
  mo.dropout = 0.5;
  mo.aggregate_first = v.aggregate_first;
  mo.residual = v.residual;
  mo.layer_norm = v.layer_norm;
  Model m(ctx, mo, static_cast<int>(g.feature_dim), g.num_classes, 7);
  const int64_t n = g.num_nodes;
  Tensor x = Tensor::from_vector(std::vector<float>(g.features.begin(), g.features.end()), {n, g.feature_dim});
  // L = sum(logits * r): dL/dlogits = r.
  mlsys::Rng rng(3);
  std::vector<float> rv(static_cast<size_t>(n * g.num_classes));
  for (auto& e : rv) e = static_cast<float>(rng.normal());
  Tensor r = Tensor::from_vector(rv, {n, static_cast<int64_t>(g.num_classes)});
  auto loss = [&] {
    ForwardEnv env{ctx, ex, lg, true, false, 99, nullptr};
    Tensor y = m.forward(env, x);
    double s = 0;
    for (int64_t i = 0; i < y.numel(); ++i) s += static_cast<double>(y.data<float>()[i]) * rv[static_cast<size_t>(i)];
    return s;
  };
  m.drop_grads();
  {
    ForwardEnv env{ctx, ex, lg, true, false, 99, nullptr};
    m.forward(env, x);
    m.backward(env, r);
  }
  // Directional derivative of every parameter tensor along a random direction.
  for (nn::Parameter* p : m.params()) {
    CAPTURE(p->name);
    const int64_t k = p->value.numel();
    std::vector<float> dir(static_cast<size_t>(k)), saved(p->value.data<float>(), p->value.data<float>() + k);
    double analytic = 0;
    for (int64_t i = 0; i < k; ++i) {
      dir[i] = static_cast<float>(rng.normal());
      analytic += static_cast<double>(dir[i]) * p->grad.data<float>()[i];
    }
    auto at = [&](float s) {
      for (int64_t i = 0; i < k; ++i) p->value.data<float>()[i] = saved[i] + s * dir[i];
      return loss();
    };
    // ReLU / LeakyReLU kinks (GAT has one per edge score) within a step spoil the central
    // difference now and then: take the best of three step sizes and of the central and the two
    // one-sided differences (a kink lies on one side of 0 only; a wrong gradient is off at all of them).
    double err = 1e300;
    const double l0 = loss();
    for (float eps : {3e-5f, 1e-4f, 3e-4f}) {
      const double up = at(eps), down = at(-eps);
      for (double numeric : {(up - down) / (2.0 * eps), (up - l0) / eps, (l0 - down) / eps})
        err = std::min(err, std::abs(numeric - analytic));
    }
    for (int64_t i = 0; i < k; ++i) p->value.data<float>()[i] = saved[i];
    CHECK(err <= 2e-2 * std::max(1.0, std::abs(analytic)));
  }
}

}  // namespace

TEST_CASE("model backward with dropout matches finite differences (gcn, sage, gat, transform or aggregate first)") {
  SbmParams sp = small_sbm(80);
  sp.features = 12;
  Graph g = generate_sbm(sp, 5);
  const HaloPlan plan = build_halo_plan(g, std::vector<int32_t>(static_cast<size_t>(g.num_nodes), 0), 1, 0);
  CommOptions co;
  comm::run_ranks(co, [&](comm::Communicator& c) {
    for (Variant v : {Variant{"gcn", false, false, false, 8}, Variant{"gcn", true, false, false, 8},
                      Variant{"gcn", false, true, true, 12}, Variant{"sage", false, false, false, 8},
                      Variant{"sage", true, true, false, 12}, Variant{"gat", false, false, true, 6}}) {
      CAPTURE(v.arch);
      CAPTURE(v.aggregate_first);
      CAPTURE(v.residual);
      CAPTURE(v.layer_norm);
      check_variant(c, g, plan, v);
    }
  });
}
