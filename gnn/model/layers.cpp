#include "gnn/model/layers.hpp"

#include <algorithm>
#include <cmath>

#include "core/kernels/kernels.hpp"
#include "core/quant/rng.hpp"
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

namespace {

// Graph dropout's keep test: a 24-bit uniform from a per-row key (seed, global id) and a cheap
// per-column mix, so a node's mask is the same whichever worker owns it. A zero input counts as
// dropped: its gradient is not needed (raw features) or already zero (ReLU outputs), and the hash
// is skipped for sparse rows.
inline uint32_t drop_threshold(float p) { return static_cast<uint32_t>(static_cast<double>(p) * 16777216.0); }
inline uint32_t drop_row_key(uint64_t seed, int32_t gid) {
  return static_cast<uint32_t>(hash_key(seed, static_cast<uint64_t>(gid)) >> 32);
}
inline bool drop_keep(uint32_t key, int64_t c, uint32_t threshold) {
  return (quant::rng_bits(key, static_cast<uint32_t>(c)) >> 8) >= threshold;
}

// One row of f values: y = src * scale where the input row x keeps the column, else 0 (forward:
// src = x; backward: src = y = the gradient). Written so the compiler vectorizes the hash
// (AVX-512 / AVX2 clones picked at run time; the build itself targets baseline x86-64).
__attribute__((target_clones("avx512f", "avx2", "default"))) void dropout_row(const float* x, const float* src, float* y,
                                                                               int64_t f, uint32_t key,
                                                                               uint32_t threshold, float scale) {
  for (int64_t c = 0; c < f; ++c) {
    const bool keep = (x[c] != 0.0f) & drop_keep(key, c, threshold);
    y[c] = keep ? src[c] * scale : 0.0f;
  }
}

// Rows [r0, r1) of src [*, f] times keep / (1 - p) into out (row r at out + (r - r0) * f), the keep
// mask regenerated from x's rows and the seed (forward: src = x; backward: src = out = the gradient).
void dropout_rows(const float* x, const float* src, float* out, int64_t r0, int64_t r1, int64_t f, float p,
                  uint64_t seed, const int32_t* gids) {
  const float scale = 1.0f / (1.0f - p);
  const uint32_t threshold = drop_threshold(p);
#pragma omp parallel for schedule(static)
  for (int64_t i = r0; i < r1; ++i)
    dropout_row(x + i * f, src + i * f, out + (i - r0) * f, f, drop_row_key(seed, gids[i]), threshold, scale);
}

// Rows per block of the fused dropout products: a dropped block (about 8 MiB) stays in the
// last-level cache between being formed and being multiplied.
int64_t block_rows(int64_t f) { return std::clamp<int64_t>((int64_t{1} << 21) / std::max<int64_t>(f, 1), 64, 16384); }

// Dropout on a layer's input. On the host nothing is stored: the mask is a function of (seed,
// global id, column) and of the input, so the dropped input is formed a block of rows at a time
// inside the products that use it (drop(H) W, drop(H)^T G, and (G W^T) * keep for the input
// gradient, where a block's keep is "dropped value != 0") and never held whole. On cuda the
// dropped input and the u8 mask are kept (the device kernel's stream). A sparse input
// (env.sparse_x, layer 0) keeps its CSR and drops nonzeros: values_d = values * keep / (1 - p).
struct DropIn {
  Tensor in, hd, mask;  // in: the undropped input; hd, mask: kept dropped input and mask (cuda)
  float p = 0;
  uint64_t seed = 0;
  const int32_t* gids = nullptr;
  bool active = false;
  Csr sx;  // sparse input with dropped values (sx.rows == 0: dense)

  void begin(ForwardEnv& env, const Tensor& h, float prob, int slot) {
    *this = DropIn();
    p = prob;
    seed = hash_key(env.dropout_seed, static_cast<uint64_t>(slot));
    gids = env.lg.global_ids.data();
    if (!h.defined() && env.sparse_x) {
      sx = *env.sparse_x;
      if (env.train && p > 0) {
        const int64_t nnz = sx.nnz();
        Tensor vals = Tensor::empty({nnz}, DType::f32, env.ctx);
        const float* v = env.sparse_x->values.data<float>();
        const int64_t* rp = sx.row_ptr.data<int64_t>();
        const int32_t* col = sx.col.data<int32_t>();
        float* out = vals.data<float>();
        const float scale = 1.0f / (1.0f - p);
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < sx.rows; ++r)
          for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
            const uint64_t key = hash_key(seed, static_cast<uint64_t>(env.lg.global_ids[r]), static_cast<uint64_t>(col[e]));
            out[e] = static_cast<double>(key >> 11) * 0x1.0p-53 >= p ? v[e] * scale : 0.0f;
          }
        sx.values = vals;
      }
      return;
    }
    in = h;
    active = env.train && p > 0;
    if (active && env.ctx.is_cuda()) {
      hd = Tensor::empty(h.shape(), DType::f32, env.ctx);
      mask = Tensor::empty(h.shape(), DType::u8, env.ctx);
      k::dropout(env.ctx, h, hd, mask, p, seed);  // the device kernel stores its mask
    }
  }
  bool regenerated() const { return active && !hd.defined(); }
  // The dense dropped input whole (a new tensor when regenerated).
  Tensor dropped(ForwardEnv& env) const {
    if (!regenerated()) return active ? hd : in;
    Tensor t = Tensor::empty(in.shape(), DType::f32, env.ctx);
    dropout_rows(in.data<float>(), in.data<float>(), t.data<float>(), 0, in.rows(), in.row_numel(), p, seed, gids);
    return t;
  }
  // out = drop(in) w + beta * out.
  void matmul(ForwardEnv& env, const Tensor& w, const Tensor& out, float beta = 0.0f) const {
    if (sx.rows) return k::spmm(env.ctx, sx, w, out, Tensor(), beta);
    if (!regenerated()) return k::gemm(env.ctx, active ? hd : in, false, w, false, out, 1.0f, beta);
    const int64_t n = in.rows(), f = in.row_numel(), b = block_rows(f);
    if (n == 0) return;
    Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
    for (int64_t r0 = 0; r0 < n; r0 += b) {
      const int64_t r1 = std::min(n, r0 + b);
      dropout_rows(in.data<float>(), in.data<float>(), s.data<float>(), r0, r1, f, p, seed, gids);
      k::gemm(env.ctx, s.rows(0, r1 - r0), false, w, false, out.rows(r0, r1), 1.0f, beta);
    }
  }
  // w.grad += drop(in)^T g; with need_input_grad returns the input gradient (g w^T) * keep / (1 - p).
  Tensor backward(ForwardEnv& env, const Tensor& g, Param& w, bool need_input_grad) const {
    if (sx.rows) {
      // Explicit edge values: the cached transpose holds the undropped values.
      k::spmm_t(env.ctx, sx, g, w.grad, sx.values, 1.0f);
      return Tensor();
    }
    Tensor gin = need_input_grad ? Tensor::empty({g.rows(), w.value.dim(0)}, DType::f32, env.ctx) : Tensor();
    if (!regenerated()) {
      k::gemm(env.ctx, active ? hd : in, true, g, false, w.grad, 1.0f, 1.0f);
      if (need_input_grad) {
        k::gemm(env.ctx, g, false, w.value, true, gin);
        if (active) k::dropout_backward(env.ctx, gin, mask, p, gin);
      }
      return gin;
    }
    const int64_t n = in.rows(), f = in.row_numel(), b = block_rows(f);
    if (n == 0) return gin;
    Tensor s = Tensor::empty({std::min(b, n), f}, DType::f32, env.ctx);
    const float scale = 1.0f / (1.0f - p);
    for (int64_t r0 = 0; r0 < n; r0 += b) {
      const int64_t r1 = std::min(n, r0 + b);
      Tensor blk = s.rows(0, r1 - r0);
      dropout_rows(in.data<float>(), in.data<float>(), blk.data<float>(), r0, r1, f, p, seed, gids);
      k::gemm(env.ctx, blk, true, g.rows(r0, r1), false, w.grad, 1.0f, 1.0f);
      if (!need_input_grad) continue;
      Tensor gi = gin.rows(r0, r1);
      k::gemm(env.ctx, g.rows(r0, r1), false, w.value, true, gi);
      const float* d = blk.data<float>();
      float* o = gi.data<float>();
      const int64_t cnt = (r1 - r0) * f;
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < cnt; ++i) o[i] = d[i] != 0.0f ? o[i] * scale : 0.0f;
    }
    return gin;
  }
  // g *= keep / (1 - p) in place (g: the gradient w.r.t. the dropped input).
  void back_inplace(ForwardEnv& env, const Tensor& g) const {
    if (!active) return;
    if (!regenerated()) return k::dropout_backward(env.ctx, g, mask, p, g);
    dropout_rows(in.data<float>(), g.data<float>(), g.data<float>(), 0, g.rows(), g.row_numel(), p, seed, gids);
  }
};

Tensor exchange(ForwardEnv& env, int slot, const Tensor& t) {
  return env.exact ? env.ex.forward_exact(t) : env.ex.forward(slot, t);
}

Tensor matmul_t(ForwardEnv& env, const Tensor& g, const Tensor& w) {  // g W^T
  Tensor y = Tensor::empty({g.rows(), w.dim(0)}, DType::f32, env.ctx);
  k::gemm(env.ctx, g, false, w, true, y);
  return y;
}
void acc_weight_grad(ForwardEnv& env, const Tensor& x, const Tensor& g, Param& w) {  // += x^T g
  k::gemm(env.ctx, x, true, g, false, w.grad, 1.0f, 1.0f);
}
// Rows of the layer input (dense or sparse).
int64_t input_rows(const DropIn& d) { return d.sx.rows ? d.sx.rows : d.in.rows(); }

// GCN: Y = A_hat dropout(H) W + b. Exchanges the narrower side: W first when out < in.
class GcnLayer final : public Layer {
 public:
  GcnLayer(DeviceContext& ctx, int slot, int in, int out, float p, bool precomputed, bool agg_first, uint64_t seed)
      : slot_(slot), in_(in), out_(out), p_(p), precomputed_(precomputed), transform_first_(out <= in && !agg_first) {
    params_.push_back(make_param(ctx, "gcn" + std::to_string(slot) + ".w", in, out, glorot(in, out), seed, true));
    params_.push_back(make_param(ctx, "gcn" + std::to_string(slot) + ".b", 1, out, 0, seed, false));
  }
  Tensor forward(ForwardEnv& env, const Tensor& h) override {
    drop_.begin(env, h, p_, slot_);
    Tensor y = Tensor::empty({env.lg.owned, out_}, DType::f32, env.ctx);
    if (precomputed_) {
      drop_.matmul(env, params_[0].value, y);
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor t = Tensor::empty({input_rows(drop_), out_}, DType::f32, env.ctx);
      drop_.matmul(env, params_[0].value, t);
      k::spmm(env.ctx, env.lg.gcn, exchange(env, slot_, t), y);
    } else {
      Tensor ext = exchange(env, slot_, drop_.dropped(env));
      z_ = Tensor::empty({h.rows(), in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.gcn, ext, z_);
      ext = Tensor();
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
      ghd = drop_.backward(env, gy, w, need_input_grad);
    } else if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.gcn, gy, gt_ext);
      Tensor gt = env.ex.backward(slot_, gt_ext);
      gt_ext = Tensor();
      ghd = drop_.backward(env, gt, w, need_input_grad);
    } else {
      acc_weight_grad(env, z_, gy, w);
      z_ = Tensor();
      if (need_input_grad) {
        Tensor g_ext = Tensor::empty({env.lg.local, in_}, DType::f32, env.ctx);
        k::spmm_t(env.ctx, env.lg.gcn, matmul_t(env, gy, w.value), g_ext);
        ghd = env.ex.backward(slot_, g_ext);
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
    drop_.begin(env, h, p_, slot_);
    Tensor y = Tensor::empty({input_rows(drop_), out_}, DType::f32, env.ctx);
    drop_.matmul(env, params_[0].value, y);
    if (transform_first_ || drop_.sx.rows) {
      Tensor t = Tensor::empty({input_rows(drop_), out_}, DType::f32, env.ctx);
      drop_.matmul(env, params_[1].value, t);
      k::spmm(env.ctx, env.lg.mean, exchange(env, slot_, t), y, Tensor(), 1.0f);
    } else {
      Tensor ext = exchange(env, slot_, drop_.dropped(env));
      agg_ = Tensor::empty({h.rows(), in_}, DType::f32, env.ctx);
      k::spmm(env.ctx, env.lg.mean, ext, agg_);
      ext = Tensor();
      k::gemm(env.ctx, agg_, false, params_[1].value, false, y, 1.0f, 1.0f);
    }
    k::add_row_vector(env.ctx, y, params_[2].value, y);
    return y;
  }
  Tensor backward(ForwardEnv& env, const Tensor& gy, bool need_input_grad) override {
    Param &ws = params_[0], &wn = params_[1], &b = params_[2];
    k::col_sum(env.ctx, gy, b.grad, 1.0f);
    Tensor ghd;
    if (transform_first_ || drop_.sx.rows) {
      Tensor gt_ext = Tensor::empty({env.lg.local, out_}, DType::f32, env.ctx);
      k::spmm_t(env.ctx, env.lg.mean, gy, gt_ext);
      Tensor gt = env.ex.backward(slot_, gt_ext);
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
        k::spmm_t(env.ctx, env.lg.mean, matmul_t(env, gy, wn.value), g_ext);
        ghd = env.ex.backward(slot_, g_ext);
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
    drop_.begin(env, h, p_, slot_);
    Tensor t = Tensor::empty({h.rows(), params_[0].value.dim(1)}, DType::f32, env.ctx);
    drop_.matmul(env, params_[0].value, t);
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
    gt_ext = Tensor();
    Tensor ghd = drop_.backward(env, gt, w, need_input_grad);
    clear();
    return ghd;
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
