#include "gnn/model/layers.hpp"

#include <cmath>

#include "core/kernels/kernels.hpp"
#include "gnn/graph/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

Param make_param(DeviceContext& ctx, const std::string& name, int64_t rows, int64_t cols, float bound, uint64_t seed,
                 bool decay) {
  std::vector<float> v(static_cast<size_t>(rows * cols), 0.0f);
  Rng r(seed);
  if (bound > 0)
    for (auto& x : v) x = static_cast<float>((2.0 * r.uniform() - 1.0) * bound);
  Shape s = rows == 1 ? Shape{cols} : Shape{rows, cols};
  Param p;
  p.name = name;
  p.value = Tensor::from_vector(v, s).to(ctx);
  p.grad = Tensor::zeros(s, DType::f32, ctx);
  p.m = Tensor::zeros(s, DType::f32, ctx);
  p.v = Tensor::zeros(s, DType::f32, ctx);
  p.decay = decay;
  return p;
}

static float glorot(int in, int out) { return std::sqrt(6.0f / static_cast<float>(in + out)); }

void graph_dropout(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Tensor& mask, float p, uint64_t seed,
                   const std::vector<int32_t>& gids) {
  if (ctx.is_cuda()) {
    k::dropout(ctx, x, out, mask, p, seed);
    return;
  }
  const int64_t n = x.rows(), f = x.row_numel();
  const float* xi = x.data<float>();
  float* yo = out.data<float>();
  uint8_t* m = mask.data<uint8_t>();
  const float scale = 1.0f / (1.0f - p);
  // 24-bit uniforms from a per-row key (seed, global id) and a cheap per-column mix: the mask of a
  // node is the same whichever worker owns it.
  const uint32_t threshold = static_cast<uint32_t>(static_cast<double>(p) * 16777216.0);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t key = static_cast<uint32_t>(hash_key(seed, static_cast<uint64_t>(gids[i])) >> 32);
    for (int64_t c = 0; c < f; ++c) {
      // A zero input stays zero whatever the mask; its gradient is not needed (raw features) or
      // already zero (ReLU outputs), so skip the hash for sparse rows.
      if (xi[i * f + c] == 0.0f) {
        m[i * f + c] = 0;
        yo[i * f + c] = 0.0f;
        continue;
      }
      uint32_t h = key ^ (static_cast<uint32_t>(c) * 0x9E3779B9u);
      h ^= h >> 16;
      h *= 0x85ebca6bu;
      h ^= h >> 13;
      h *= 0xc2b2ae35u;
      h ^= h >> 16;
      const bool keep = (h >> 8) >= threshold;
      m[i * f + c] = keep;
      yo[i * f + c] = keep ? xi[i * f + c] * scale : 0.0f;
    }
  }
}

namespace {

// Dropout on a layer's input, remembered for the backward. A sparse input (env.sparse_x, layer 0)
// keeps its CSR and drops nonzeros: values_d = values * keep / (1 - p).
struct DropIn {
  Tensor hd, mask;
  bool active = false;
  Csr sx;  // sparse input with dropped values (sx.rows == 0: dense)
  Tensor apply(ForwardEnv& env, const Tensor& h, float p, int slot) {
    if (!h.defined() && env.sparse_x) {
      sx = *env.sparse_x;
      active = false;
      if (env.train && p > 0) {
        const int64_t nnz = sx.nnz();
        Tensor vals = Tensor::empty({nnz}, DType::f32, env.ctx);
        const float* v = env.sparse_x->values.data<float>();
        const int64_t* rp = sx.row_ptr.data<int64_t>();
        const int32_t* col = sx.col.data<int32_t>();
        float* out = vals.data<float>();
        const uint64_t seed = hash_key(env.dropout_seed, static_cast<uint64_t>(slot));
        const float scale = 1.0f / (1.0f - p);
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < sx.rows; ++r)
          for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
            const uint64_t key = hash_key(seed, static_cast<uint64_t>(env.lg.global_ids[r]), static_cast<uint64_t>(col[e]));
            out[e] = static_cast<double>(key >> 11) * 0x1.0p-53 >= p ? v[e] * scale : 0.0f;
          }
        sx.values = vals;
      }
      return Tensor();
    }
    sx = Csr();
    active = env.train && p > 0;
    if (!active) return hd = h;
    hd = Tensor::empty(h.shape(), DType::f32, env.ctx);
    mask = Tensor::empty(h.shape(), DType::u8, env.ctx);
    graph_dropout(env.ctx, h, hd, mask, p, hash_key(env.dropout_seed, static_cast<uint64_t>(slot)), env.lg.global_ids);
    return hd;
  }
  Tensor back(ForwardEnv& env, const Tensor& g, float p) {
    if (!active) return g;
    Tensor out = Tensor::empty(g.shape(), DType::f32, env.ctx);
    k::dropout_backward(env.ctx, g, mask, p, out);
    return out;
  }
};

Tensor exchange(ForwardEnv& env, int slot, const Tensor& t) {
  return env.exact ? env.ex.forward_exact(t) : env.ex.forward(slot, t);
}

Tensor matmul(ForwardEnv& env, const Tensor& a, const Tensor& w) {
  Tensor y = Tensor::empty({a.rows(), w.dim(1)}, DType::f32, env.ctx);
  k::gemm(env.ctx, a, false, w, false, y);
  return y;
}
// The layer input (dense, or the dropped sparse features) times w.
Tensor matmul_in(ForwardEnv& env, const DropIn& d, const Tensor& w) {
  if (d.sx.rows == 0) return matmul(env, d.hd, w);
  Tensor y = Tensor::empty({d.sx.rows, w.dim(1)}, DType::f32, env.ctx);
  k::spmm(env.ctx, d.sx, w, y);
  return y;
}
Tensor matmul_t(ForwardEnv& env, const Tensor& g, const Tensor& w) {  // g W^T
  Tensor y = Tensor::empty({g.rows(), w.dim(0)}, DType::f32, env.ctx);
  k::gemm(env.ctx, g, false, w, true, y);
  return y;
}
void acc_weight_grad(ForwardEnv& env, const Tensor& x, const Tensor& g, Param& w) {  // += x^T g
  k::gemm(env.ctx, x, true, g, false, w.grad, 1.0f, 1.0f);
}
void acc_weight_grad_in(ForwardEnv& env, const DropIn& d, const Tensor& g, Param& w) {
  if (d.sx.rows == 0) return acc_weight_grad(env, d.hd, g, w);
  // Explicit edge values: the cached transpose holds the undropped values.
  k::spmm_t(env.ctx, d.sx, g, w.grad, d.sx.values, 1.0f);
}

// GCN: Y = A_hat dropout(H) W + b. Exchanges the narrower side: W first when out < in.
class GcnLayer final : public Layer {
 public:
  GcnLayer(DeviceContext& ctx, int slot, int in, int out, float p, bool precomputed, bool agg_first, uint64_t seed)
      : slot_(slot), in_(in), out_(out), p_(p), precomputed_(precomputed), transform_first_(out <= in && !agg_first) {
    params_.push_back(make_param(ctx, "gcn" + std::to_string(slot) + ".w", in, out, glorot(in, out), seed, true));
    params_.push_back(make_param(ctx, "gcn" + std::to_string(slot) + ".b", 1, out, 0, seed, false));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    Tensor hd = drop_.apply(env, h, p_, slot_);
    Tensor y = Tensor::empty({env.lg.owned, out_}, DType::f32, env.ctx);
    if (precomputed_) {
      k::gemm(env.ctx, hd, false, params_[0].value, false, y);
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor t = matmul_in(env, drop_, params_[0].value);
      k::spmm(env.ctx, env.lg.gcn, exchange(env, slot_, t), y);
    } else {
      Tensor ext = exchange(env, slot_, hd);
      z_ = Tensor::empty({h.rows(), in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.gcn, ext, z_);
      k::gemm(env.ctx, z_, false, params_[0].value, false, y);
    }
    k::add_row_vector(env.ctx, y, params_[1].value, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, const Tensor& gy, bool need_input_grad) override {
    Param &w = params_[0], &b = params_[1];
    k::col_sum(env.ctx, gy, b.grad, 1.0f);
    Tensor ghd;
    if (precomputed_) {
      acc_weight_grad(env, drop_.hd, gy, w);
      if (need_input_grad) ghd = matmul_t(env, gy, w.value);
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.gcn, gy, gt_ext);
      Tensor gt = env.ex.backward(slot_, gt_ext);
      acc_weight_grad_in(env, drop_, gt, w);
      if (need_input_grad) ghd = matmul_t(env, gt, w.value);
    } else {
      acc_weight_grad(env, z_, gy, w);
      if (!need_input_grad) return Tensor();
      Tensor gz = matmul_t(env, gy, w.value);
      Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.gcn, gz, g_ext);
      ghd = env.ex.backward(slot_, g_ext);
    }
    if (!need_input_grad) return Tensor();
    return drop_.back(env, ghd, p_);
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

// GraphSAGE (mean): Y = Hd W_self + mean_{N(v)}(Hd) W_neigh + b.
class SageLayer final : public Layer {
 public:
  SageLayer(DeviceContext& ctx, int slot, int in, int out, float p, bool agg_first, uint64_t seed)
      : slot_(slot), in_(in), out_(out), p_(p), transform_first_(out <= in && !agg_first) {
    const std::string n = "sage" + std::to_string(slot);
    params_.push_back(make_param(ctx, n + ".w_self", in, out, glorot(in, out), seed, true));
    params_.push_back(make_param(ctx, n + ".w_neigh", in, out, glorot(in, out), hash_key(seed, 7), true));
    params_.push_back(make_param(ctx, n + ".b", 1, out, 0, seed, false));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    Tensor hd = drop_.apply(env, h, p_, slot_);
    Tensor y = matmul_in(env, drop_, params_[0].value);
    if (transform_first_ || drop_.sx.rows) {
      Tensor t = matmul_in(env, drop_, params_[1].value);
      k::spmm(env.ctx, env.lg.mean, exchange(env, slot_, t), y, Tensor(), 1.0f);
    } else {
      Tensor ext = exchange(env, slot_, hd);
      agg_ = Tensor::empty({h.rows(), in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.mean, ext, agg_);
      k::gemm(env.ctx, agg_, false, params_[1].value, false, y, 1.0f, 1.0f);
    }
    k::add_row_vector(env.ctx, y, params_[2].value, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, const Tensor& gy, bool need_input_grad) override {
    Param &ws = params_[0], &wn = params_[1], &b = params_[2];
    k::col_sum(env.ctx, gy, b.grad, 1.0f);
    acc_weight_grad_in(env, drop_, gy, ws);
    Tensor ghd;
    if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.mean, gy, gt_ext);
      Tensor gt = env.ex.backward(slot_, gt_ext);
      acc_weight_grad_in(env, drop_, gt, wn);
      if (!need_input_grad) return Tensor();
      ghd = matmul_t(env, gt, wn.value);
    } else {
      acc_weight_grad(env, agg_, gy, wn);
      if (!need_input_grad) return Tensor();
      Tensor gagg = matmul_t(env, gy, wn.value);
      Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.mean, gagg, g_ext);
      ghd = env.ex.backward(slot_, g_ext);
    }
    Tensor gself = Tensor::empty(ghd.shape(), DType::f32, env.ctx);
    k::gemm(env.ctx, gy, false, ws.value, true, gself);
    k::add(env.ctx, ghd, gself, ghd);
    return drop_.back(env, ghd, p_);
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

// GAT: T = Hd W (heads x out), e_uv = LeakyReLU(a_l.T_u + a_r.T_v) over v in N(u) + u,
// alpha = softmax_v(e), Y_u = sum_v alpha_uv T_v + b. Exchanges T (and returns dT_halo).
class GatLayer final : public Layer {
 public:
  GatLayer(DeviceContext& ctx, int slot, int in, int out, int heads, float p, uint64_t seed)
      : slot_(slot), in_(in), out_(out), heads_(heads), p_(p) {
    const std::string n = "gat" + std::to_string(slot);
    params_.push_back(make_param(ctx, n + ".w", in, out * heads, glorot(in, out * heads), seed, true));
    params_.push_back(make_param(ctx, n + ".a_l", heads, out, glorot(out, 1), hash_key(seed, 1), false));
    params_.push_back(make_param(ctx, n + ".a_r", heads, out, glorot(out, 1), hash_key(seed, 2), false));
    params_.push_back(make_param(ctx, n + ".b", 1, out * heads, 0, seed, false));
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
    Tensor hd = drop_.apply(env, h, p_, slot_);
    Tensor t = matmul(env, hd, params_[0].value);
    t_ext_ = exchange(env, slot_, t);
    const Csr& a = env.lg.att;
    Tensor el = head_dot(env, t, params_[1].value), er = head_dot(env, t_ext_, params_[2].value);
    scores_ = Tensor::empty({a.nnz(), heads_}, DType::f32, env.ctx);
    k::edge_add(env.ctx, a, el, er, scores_);
    Tensor act = Tensor::empty(scores_.shape(), DType::f32, env.ctx);
    k::leaky_relu(env.ctx, scores_, act, 0.2f);
    alpha_ = Tensor::empty(scores_.shape(), DType::f32, env.ctx);
    k::edge_softmax(env.ctx, a, act, alpha_);
    Tensor y = Tensor::empty({h.rows(), static_cast<int64_t>(heads_) * out_}, DType::f32, env.ctx);
    k::spmm(env.ctx, a, t_ext_, y, alpha_);
    k::add_row_vector(env.ctx, y, params_[3].value, y);
    t_own_ = t;
    return y;
  }
  Tensor backward(ForwardEnv& env, const Tensor& gy, bool need_input_grad) override {
    const Csr& a = env.lg.att;
    Param &w = params_[0], &al = params_[1], &ar = params_[2], &b = params_[3];
    k::col_sum(env.ctx, gy, b.grad, 1.0f);
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
    Tensor gt = env.ex.backward(slot_, gt_ext);
    acc_weight_grad(env, drop_.hd, gt, w);
    if (!need_input_grad) return Tensor();
    return drop_.back(env, matmul_t(env, gt, w.value), p_);
  }

 private:
  // gt[r, h*D+d] += g[r,h] * a[h,d];  a.grad[h,d] += sum_r g[r,h] * t[r,h*D+d]   (host loop / generic)
  void add_head_outer(ForwardEnv& env, const Tensor& g, Param& a, const Tensor& t, const Tensor& gt) {
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
    k::col_sum(env.ctx, prod, a.grad.reshape({hd}), 1.0f);
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

}  // namespace

std::unique_ptr<Layer> make_gcn_layer(DeviceContext& ctx, int slot, int in, int out, float p, bool pre, bool agg_first,
                                      uint64_t seed) {
  return std::make_unique<GcnLayer>(ctx, slot, in, out, p, pre, agg_first, seed);
}
std::unique_ptr<Layer> make_sage_layer(DeviceContext& ctx, int slot, int in, int out, float p, bool agg_first, uint64_t seed) {
  return std::make_unique<SageLayer>(ctx, slot, in, out, p, agg_first, seed);
}
std::unique_ptr<Layer> make_gat_layer(DeviceContext& ctx, int slot, int in, int out, int heads, float p, uint64_t seed) {
  return std::make_unique<GatLayer>(ctx, slot, in, out, heads, p, seed);
}

}  // namespace mlsys::gnn
