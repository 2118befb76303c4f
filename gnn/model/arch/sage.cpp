// GraphSAGE, mean aggregator (Hamilton, Ying & Leskovec, "Inductive Representation Learning on Large
// Graphs", NeurIPS 2017), full-graph.
#include "core/kernels/kernels.hpp"
#include "core/util/random.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/dropout.hpp"

namespace mlsys::gnn {
namespace {

namespace k = kernels;

// GraphSAGE (mean): Y = Hd W_self + mean_{N(v)}(Hd) W_neigh + b.
class SageLayer final : public Layer {
 public:
  SageLayer(DeviceContext& ctx, const LayerSpec& s)
      : slot_(s.slot), in_(s.in), out_(s.out), p_(s.dropout), transform_first_(s.out <= s.in && !s.aggregate_first) {
    const std::string n = "sage" + std::to_string(s.slot);
    params_.push_back(make_param(ctx, n + ".w_self", s.in, s.out, glorot(s.in, s.out), s.seed, true));
    params_.push_back(make_param(ctx, n + ".w_neigh", s.in, s.out, glorot(s.in, s.out), derive_seed(s.seed, 7), true));
    params_.push_back(make_param(ctx, n + ".b", 1, s.out, 0, s.seed, false));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    drop_.begin(env, h, p_, slot_);
    // The self term reads the owned rows only (a local input has the halo rows after them).
    Tensor y = Tensor::empty({env.lg.owned, out_}, DType::f32, env.ctx);
    drop_.matmul(env, params_[0].value, y);
    if (transform_first_ || drop_.sx.rows) {
      Tensor t = Tensor::empty({drop_.rows(), out_}, DType::f32, env.ctx);
      drop_.matmul(env, params_[1].value, t);
      drop_.release_dropped();
      k::spmm(env.ctx, env.lg.adj, exchange(env, slot_, t), y, Tensor(), 1.0f);
    } else {
      Tensor ext = exchange(env, slot_, drop_.dropped(env));
      agg_ = Tensor::empty({env.lg.owned, in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.adj, ext, agg_);
      ext = Tensor();
      k::gemm(env.ctx, agg_, false, params_[1].value, false, y, 1.0f, 1.0f);
    }
    k::add_row_vector(env.ctx, y, params_[2].value, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, Tensor gy, bool need_input_grad) override {
    nn::Parameter &ws = params_[0], &wn = params_[1], &b = params_[2];
    k::col_sum(env.ctx, gy, grad_of(env.ctx, b), 1.0f);
    Tensor ghd;
    if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.adj, gy, gt_ext);
      Tensor gt = exchange_back(env, slot_, gt_ext);
      gt_ext = Tensor();
      ghd = drop_.backward(env, gt, wn, need_input_grad);
      Tensor gself = drop_.backward(env, gy, ws, need_input_grad);
      if (need_input_grad) k::add(env.ctx, ghd, gself, ghd);
    } else {
      acc_weight_grad(env, agg_, gy, wn);
      agg_ = Tensor();
      drop_.backward(env, gy, ws, false);
      if (need_input_grad) {
        Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
        k::spmm_t(env.ctx, env.lg.adj, matmul_t(env, gy, wn.value), g_ext);
        ghd = exchange_back(env, slot_, g_ext);
        k::gemm(env.ctx, gy, false, ws.value, true, ghd, 1.0f, 1.0f);
        drop_.back_inplace(env, ghd);
      }
    }
    clear();
    return ghd;
  }

 private:
  int slot_, in_, out_;
  float p_;
  bool transform_first_;
  DropIn drop_;
  Tensor agg_;

 public:
  void clear() override {
    drop_ = DropIn();
    agg_ = Tensor();
  }
};

class Sage final : public Architecture {
 public:
  Adjacency adjacency() const override { return Adjacency::mean; }
  std::unique_ptr<Layer> make_layer(DeviceContext& ctx, const LayerSpec& s) const override {
    return std::make_unique<SageLayer>(ctx, s);
  }
};

const bool registered = architecture_registry().add(
    "sage", "GraphSAGE with the mean aggregator, H W_self + mean(H) W_neigh (Hamilton, Ying & Leskovec, NeurIPS 2017)",
    [] { return std::make_unique<Sage>(); });

}  // namespace
}  // namespace mlsys::gnn
