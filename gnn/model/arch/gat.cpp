// GAT (Velickovic et al., "Graph Attention Networks", ICLR 2018).
#include "core/kernels/kernels.hpp"
#include "core/util/random.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/dropout.hpp"

namespace mlsys::gnn {
namespace {

namespace k = kernels;

// GAT: T = Hd W (heads x out), e_uv = LeakyReLU(a_l.T_u + a_r.T_v) over v in N(u) + u,
// alpha = softmax_v(e), Y_u = sum_v alpha_uv T_v + b. Exchanges T (and returns dT_halo).
class GatLayer final : public Layer {
 public:
  GatLayer(DeviceContext& ctx, const LayerSpec& s)
      : slot_(s.slot), in_(s.in), out_(s.out), heads_(s.heads), p_(s.dropout) {
    const std::string n = "gat" + std::to_string(s.slot);
    const int width = s.out * s.heads;
    params_.push_back(make_param(ctx, n + ".w", s.in, width, glorot(s.in, width), s.seed, true));
    params_.push_back(make_param(ctx, n + ".a_l", s.heads, s.out, glorot(s.out, 1), derive_seed(s.seed, 1), false));
    params_.push_back(make_param(ctx, n + ".a_r", s.heads, s.out, glorot(s.out, 1), derive_seed(s.seed, 2), false));
    params_.push_back(make_param(ctx, n + ".b", 1, width, 0, s.seed, false));
  }
  // s[r, h] = sum_d T[r, h*D + d] * a[h, d]
  Tensor head_dot(ForwardEnv& env, const Tensor& t, const Tensor& a) {
    const int64_t r = t.rows();
    Tensor s = Tensor::empty({r, heads_}, DType::f32, env.ctx);
    Tensor prod = Tensor::empty(t.shape(), DType::f32, env.ctx);
    Tensor ab = Tensor::empty(t.shape(), DType::f32, env.ctx);
    // Broadcast a over rows: ab[r,:] = a (flattened) via add_row_vector on zeros.
    k::fill(env.ctx, ab, 0.0f);
    k::add_row_vector(env.ctx, ab, a.reshape({static_cast<int64_t>(heads_) * out_}), ab);
    k::mul(env.ctx, t, ab, prod);
    k::row_sum(env.ctx, prod.reshape({r * heads_, out_}), s.reshape({r * heads_}));
    return s;
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    drop_.begin(env, h, p_, slot_);
    Tensor t = Tensor::empty({drop_.rows(), params_[0].value.dim(1)}, DType::f32, env.ctx);
    drop_.matmul(env, params_[0].value, t);
    drop_.release_dropped();
    t_ext_ = exchange(env, slot_, t);
    t = t.rows(0, env.lg.owned);  // a local input computed the halo rows too
    const Csr& a = env.lg.adj;
    Tensor el = head_dot(env, t, params_[1].value), er = head_dot(env, t_ext_, params_[2].value);
    scores_ = Tensor::empty({a.nnz(), heads_}, DType::f32, env.ctx);
    k::edge_add(env.ctx, a, el, er, scores_);
    Tensor act = Tensor::empty(scores_.shape(), DType::f32, env.ctx);
    k::leaky_relu(env.ctx, scores_, act, 0.2f);
    alpha_ = Tensor::empty(scores_.shape(), DType::f32, env.ctx);
    k::edge_softmax(env.ctx, a, act, alpha_);
    Tensor y = Tensor::empty({env.lg.owned, static_cast<int64_t>(heads_) * out_}, DType::f32, env.ctx);
    k::spmm(env.ctx, a, t_ext_, y, alpha_);
    k::add_row_vector(env.ctx, y, params_[3].value, y);
    t_own_ = t;
    return y;
  }
  Tensor backward(ForwardEnv& env, Tensor gy, bool need_input_grad) override {
    const Csr& a = env.lg.adj;
    nn::Parameter &w = params_[0], &al = params_[1], &ar = params_[2], &b = params_[3];
    k::col_sum(env.ctx, gy, grad_of(env.ctx, b), 1.0f);
    // Through the aggregation: dT_ext = A^T (alpha * gy), dalpha = <gy_u, T_v> per head.
    Tensor gt_ext = Tensor::empty(t_ext_.shape(), DType::f32, env.ctx);
    k::spmm_t(env.ctx, a, gy, gt_ext, alpha_);
    Tensor galpha = Tensor::empty(alpha_.shape(), DType::f32, env.ctx);
    k::sddmm(env.ctx, a, gy, t_ext_, galpha);
    Tensor gact = Tensor::empty(alpha_.shape(), DType::f32, env.ctx);
    k::edge_softmax_backward(env.ctx, a, alpha_, galpha, gact);
    Tensor gscore = Tensor::empty(alpha_.shape(), DType::f32, env.ctx);
    k::leaky_relu_backward(env.ctx, scores_, gact, gscore, 0.2f);
    Tensor gel = Tensor::empty({a.rows, heads_}, DType::f32, env.ctx), ger = Tensor::empty({a.cols, heads_}, DType::f32, env.ctx);
    k::edge_add_backward(env.ctx, a, gscore, gel, ger);
    // el = head_dot(T_own, a_l): dT_own += gel (x) a_l, da_l += sum_r gel[r,h] T[r,h,:]; same for er.
    add_head_outer(env, gel, al, t_own_, gt_ext.rows(0, a.rows));
    add_head_outer(env, ger, ar, t_ext_, gt_ext);
    Tensor gt = exchange_back(env, slot_, gt_ext);
    gt_ext = Tensor();
    Tensor ghd = drop_.backward(env, gt, w, need_input_grad);
    clear();
    return ghd;
  }

 private:
  // gt[r, h*D+d] += g[r,h] * a[h,d];  a.grad[h,d] += sum_r g[r,h] * t[r,h*D+d]   (host loop / generic)
  void add_head_outer(ForwardEnv& env, const Tensor& g, nn::Parameter& a, const Tensor& t, const Tensor& gt) {
    const int64_t r = t.rows(), hd = static_cast<int64_t>(heads_) * out_;
    // Expand g per column: ge[r, h*D+d] = g[r,h] using scale_rows on a reshaped view.
    Tensor ge = Tensor::empty({r * heads_, out_}, DType::f32, env.ctx);
    k::fill(env.ctx, ge, 1.0f);
    k::scale_rows(env.ctx, ge, g.reshape({r * heads_}), ge);
    Tensor ge2 = ge.reshape({r, hd});
    Tensor ab = Tensor::empty({r, hd}, DType::f32, env.ctx);
    k::fill(env.ctx, ab, 0.0f);
    k::add_row_vector(env.ctx, ab, a.value.reshape({hd}), ab);
    Tensor prod = Tensor::empty({r, hd}, DType::f32, env.ctx);
    k::mul(env.ctx, ge2, ab, prod);
    k::add(env.ctx, gt, prod, gt);
    k::mul(env.ctx, ge2, t, prod);
    k::col_sum(env.ctx, prod, grad_of(env.ctx, a).reshape({hd}), 1.0f);
  }
  int slot_, in_, out_, heads_;
  float p_;
  DropIn drop_;
  Tensor t_own_, t_ext_, scores_, alpha_;

 public:
  void clear() override {
    drop_ = DropIn();
    t_own_ = t_ext_ = scores_ = alpha_ = Tensor();
  }
};

class Gat final : public Architecture {
 public:
  Adjacency adjacency() const override { return Adjacency::attention; }
  bool multi_head() const override { return true; }
  Activation activation() const override { return Activation::elu; }
  std::unique_ptr<Layer> make_layer(DeviceContext& ctx, const LayerSpec& s) const override {
    return std::make_unique<GatLayer>(ctx, s);
  }
};

const bool registered = architecture_registry().add(
    "gat", "Graph attention network, multi-head attention over A + I with ELU between layers (Velickovic et al., ICLR 2018)",
    [] { return std::make_unique<Gat>(); });

}  // namespace
}  // namespace mlsys::gnn
