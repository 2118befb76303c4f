// The architecture table: gnn.model.arch's choices are its entries, each describes itself with
// its paper, and the traits the model and trainer read agree with what the layers do.
#include <doctest/doctest.h>

#include <regex>

#include "core/comm/factory.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/model.hpp"
#include "gnn/model/model_options.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

TEST_CASE("architectures: the config key lists the table, every entry cites its paper") {
  const config::FieldBase* arch = model_section().find("arch");
  REQUIRE(arch != nullptr);
  auto listed = arch->described_choices();
  auto table = architecture_registry().choices();
  REQUIRE(listed.size() == table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    CAPTURE(table[i].name);
    CHECK(listed[i].name == table[i].name);
    CHECK(std::regex_search(table[i].description, std::regex(R"(\(.*(19|20)\d\d\))")));  // (Authors, VENUE year)
  }
  CHECK(architecture_registry().contains("gcn"));
  CHECK(architecture_registry().contains("sage"));
  CHECK(architecture_registry().contains("gat"));
  CHECK_THROWS_WITH_AS(architecture("gta"), doctest::Contains("did you mean 'gat'"), ConfigError);
}

TEST_CASE("architectures: traits match the layers they make") {
  SbmParams sp = gnntest::small_sbm(60);
  sp.features = 6;
  Graph g = generate_sbm(sp, 3);
  const HaloPlan plan = build_halo_plan(g, std::vector<int32_t>(static_cast<size_t>(g.num_nodes), 0), 1, 0);
  CommOptions co;
  comm::run_ranks(co, [&](comm::Communicator& c) {
    for (const auto* e : architecture_registry().entries()) {
      CAPTURE(e->name);
      auto a = e->factory();
      DeviceContext& ctx = cpu_context();
      const LocalGraph lg = build_local_graph(ctx, plan, a->adjacency());
      CHECK(lg.adj.rows == g.num_nodes);
      // Attention and GCN matrices hold the self loop, the mean matrix does not.
      CHECK(lg.adj.nnz() == g.num_edges() + (a->adjacency() == Adjacency::mean ? 0 : g.num_nodes));
      ModelOptions mo;
      mo.arch = e->name;
      mo.hidden = 4;
      mo.heads = 3;
      mo.precompute_first = true;
      CHECK(precomputes_first(mo) == a->precomputable_first());
      Model m(ctx, mo, static_cast<int>(g.feature_dim), g.num_classes, 1);
      // A multi-head architecture's hidden layer is heads x hidden wide.
      const int64_t hidden_width = 4 * (a->multi_head() ? 3 : 1);
      bool found = false;
      for (nn::Parameter* p : m.layer_params(1))
        if (p->value.rank() == 2 && p->decay) {
          CHECK(p->value.dim(0) == hidden_width);
          found = true;
        }
      CHECK(found);
      comm::ProgressEngine engine(c);
  Exchanger ex(engine, ctx, plan, 1, HaloOptions{});
      ex.begin_epoch(0, false, 32, 32, nullptr);
      Tensor x = Tensor::from_vector(std::vector<float>(g.features.begin(), g.features.end()), {g.num_nodes, g.feature_dim});
      ForwardEnv env{ctx, ex, lg, false, true, 0, nullptr};
      Tensor y = m.forward(env, x);
      CHECK(y.dim(0) == g.num_nodes);
      CHECK(y.dim(1) == g.num_classes);
    }
  });
}
