// GCN (Kipf & Welling, "Semi-Supervised Classification with Graph Convolutional Networks", ICLR 2017).
#include "core/kernels/kernels.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/dropout.hpp"

namespace mlsys::gnn {
namespace {

namespace k = kernels;

// GCN: Y = A_hat dropout(H) W + b. Exchanges the narrower side: W first when out < in.
class GcnLayer final : public Layer {
 public:
  GcnLayer(DeviceContext& ctx, const LayerSpec& s)
      : slot_(s.slot), in_(s.in), out_(s.out), p_(s.dropout), precomputed_(s.precomputed),
        transform_first_(s.out <= s.in && !s.aggregate_first) {
    const std::string n = "gcn" + std::to_string(s.slot);
    params_.push_back(make_param(ctx, n + ".w", s.in, s.out, glorot(s.in, s.out), s.seed, true));
    params_.push_back(make_param(ctx, n + ".b", 1, s.out, 0, s.seed, false));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    drop_.begin(env, h, p_, slot_);
    Tensor y = Tensor::empty({env.lg.owned, out_}, DType::f32, env.ctx);
    if (precomputed_) {
      drop_.matmul(env, params_[0].value, y);
      drop_.release_dropped();
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor t = Tensor::empty({drop_.rows(), out_}, DType::f32, env.ctx);
      drop_.matmul(env, params_[0].value, t);
      drop_.release_dropped();
      k::spmm(env.ctx, env.lg.adj, exchange(env, slot_, t), y);
    } else {
      Tensor ext = exchange(env, slot_, drop_.dropped(env));
      z_ = Tensor::empty({env.lg.owned, in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.adj, ext, z_);
      ext = Tensor();
      k::gemm(env.ctx, z_, false, params_[0].value, false, y);
    }
    k::add_row_vector(env.ctx, y, params_[1].value, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, Tensor gy, bool need_input_grad) override {
    nn::Parameter &w = params_[0], &b = params_[1];
    k::col_sum(env.ctx, gy, grad_of(env.ctx, b), 1.0f);
    Tensor ghd;
    if (precomputed_) {
      ghd = drop_.backward(env, gy, w, need_input_grad);
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.adj, gy, gt_ext);
      gy = Tensor();  // before the weight gradient and the dropped input are formed
      Tensor gt = exchange_back(env, slot_, gt_ext);
      gt_ext = Tensor();
      ghd = drop_.backward(env, gt, w, need_input_grad);
    } else {
      acc_weight_grad(env, z_, gy, w);
      z_ = Tensor();
      if (need_input_grad) {
        Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
        k::spmm_t(env.ctx, env.lg.adj, matmul_t(env, gy, w.value), g_ext);
        ghd = exchange_back(env, slot_, g_ext);
        drop_.back_inplace(env, ghd);
      }
    }
    clear();  // one backward per forward: release the input and caches now
    return ghd;
  }

 private:
  int slot_, in_, out_;
  float p_;
  bool precomputed_, transform_first_;
  DropIn drop_;
  Tensor z_;

 public:
  void clear() override {
    drop_ = DropIn();
    z_ = Tensor();
  }
};

class Gcn final : public Architecture {
 public:
  Adjacency adjacency() const override { return Adjacency::gcn; }
  bool precomputable_first() const override { return true; }  // A_hat X has no weights in it
  std::unique_ptr<Layer> make_layer(DeviceContext& ctx, const LayerSpec& s) const override {
    return std::make_unique<GcnLayer>(ctx, s);
  }
};

const bool registered = architecture_registry().add(
    "gcn", "Graph convolutional network, A_hat H W with symmetric normalization (Kipf & Welling, ICLR 2017)",
    [] { return std::make_unique<Gcn>(); });

}  // namespace
}  // namespace mlsys::gnn
