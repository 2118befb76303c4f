// docs/DEVELOPING.md's worked example "a GNN architecture", built as written: an Architecture and
// its Layer in one file (here this test file, in its own test binary so that the other suites'
// "every registered architecture" loops keep to the shipped ones), registered by name;
// gnn.model.arch then accepts it and training runs it, on one worker or partitioned.
#include <doctest/doctest.h>

#include "core/kernels/kernels.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/model_options.hpp"
#include "tests/gnn/gnn_test_util.hpp"
#include "tests/gnn/train/partitioned_check.hpp"

namespace mlsys::gnn {
namespace {

// Y = A_hat H W: the halo rows of H come through exchange(), their gradients go back through
// exchange_back(). No dropout and no bias, to stay short.
class SumLayer final : public Layer {
 public:
  SumLayer(DeviceContext& ctx, const LayerSpec& s) : slot_(s.slot), in_(s.in), out_(s.out) {
    params_.push_back(
        make_param(ctx, "sum" + std::to_string(s.slot) + ".w", s.in, s.out, glorot(s.in, s.out), s.seed, true));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    Tensor ext = exchange(env, slot_, h);  // [owned + halo, in]
    z_ = Tensor::empty({env.lg.owned, in_}, DType::f32, env.ctx);
    kernels::spmm(env.ctx, env.lg.adj, ext, z_);
    Tensor y = Tensor::empty({env.lg.owned, out_}, DType::f32, env.ctx);
    kernels::gemm(env.ctx, z_, false, params_[0].value, false, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, Tensor gy, bool need_input_grad) override {
    nn::Parameter& w = params_[0];
    acc_weight_grad(env, z_, gy, w);  // dW += Z^T dY
    z_ = Tensor();
    if (!need_input_grad) return Tensor();
    Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
    kernels::spmm_t(env.ctx, env.lg.adj, matmul_t(env, gy, w.value), g_ext);  // A_hat^T dY W^T
    return exchange_back(env, slot_, g_ext);
  }
  void clear() override { z_ = Tensor(); }

 private:
  int slot_, in_, out_;
  Tensor z_;  // A_hat H, kept for dW
};

class Sum final : public Architecture {
 public:
  Adjacency adjacency() const override { return Adjacency::gcn; }
  bool sparse_input() const override { return false; }  // layer 0 reads dense features
  std::unique_ptr<Layer> make_layer(DeviceContext& ctx, const LayerSpec& s) const override {
    return std::make_unique<SumLayer>(ctx, s);
  }
};

const bool registered = architecture_registry().add("sum", "A_hat H W without bias or dropout (docs example, 2026)",
                                                    [] { return std::make_unique<Sum>(); });

}  // namespace
}  // namespace mlsys::gnn

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

TEST_CASE("docs example architecture: gnn.model.arch offers it") {
  REQUIRE(registered);
  bool listed = false;
  for (const auto& c : model_section().find("arch")->described_choices()) listed = listed || c.name == "sum";
  CHECK(listed);
  CHECK(architecture("sum")->adjacency() == Adjacency::gcn);
}

TEST_CASE("docs example architecture: 4 workers at 32 bits match one worker's loss curve, and it learns") {
  Graph g = generate_sbm(small_sbm(600), 3);
  TrainSetup s = arch_setup(1, 10, "sum");
  s.gnn.model.dropout = 0;  // the example has none
  TrainResult four = check_partitioned_matches_one(g, s, 4);
  CHECK(four.epochs.back().mean.wire_bytes > 0);  // the halo rows went through the exchange
}
