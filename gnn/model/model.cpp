#include "gnn/model/model.hpp"

#include <utility>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

Model::Model(DeviceContext& ctx, const ModelOptions& cfg, int in_dim, int out_dim, uint64_t seed)
    : o_(cfg), arch_(architecture(cfg.arch)), elu_(arch_->activation() == Activation::elu) {
  if (cfg.layers < 1) throw ConfigError("gnn.model.layers must be >= 1");
  const bool multi_head = arch_->multi_head();
  LayerSpec spec;
  spec.in = in_dim;
  spec.dropout = static_cast<float>(cfg.dropout);
  spec.aggregate_first = cfg.aggregate_first;
  for (int l = 0; l < cfg.layers; ++l) {
    const bool last = l == cfg.layers - 1;
    spec.slot = l;
    spec.heads = multi_head && !last ? cfg.heads : 1;
    spec.out = last ? out_dim : cfg.hidden;
    spec.precomputed = l == 0 && precomputes_first(cfg);
    spec.seed = derive_seed(seed, 0x1a7e5u, static_cast<uint64_t>(l));
    layers_.push_back(arch_->make_layer(ctx, spec));
    spec.in = spec.out * spec.heads;
  }
  hidden_.resize(static_cast<size_t>(cfg.layers));
  if (cfg.layer_norm) {
    norms_.reserve(static_cast<size_t>(2 * cfg.layers));
    for (int l = 0; l + 1 < cfg.layers; ++l) {
      const int w = cfg.hidden * (multi_head ? cfg.heads : 1);
      norms_.push_back(make_param(ctx, "ln" + std::to_string(l) + ".gamma", 1, w, 0, 0, false));
      k::fill(ctx, norms_.back().value, 1.0f);
      hidden_[l].gamma = &norms_.back();
      norms_.push_back(make_param(ctx, "ln" + std::to_string(l) + ".beta", 1, w, 0, 0, false));
      hidden_[l].beta = &norms_.back();
    }
  }
}

std::vector<nn::Parameter*> Model::params() {
  std::vector<nn::Parameter*> out;
  for (auto& l : layers_)
    for (nn::Parameter* p : l->params()) out.push_back(p);
  for (auto& p : norms_) out.push_back(&p);
  return out;
}

std::vector<nn::Parameter*> Model::layer_params(int layer) { return layers_.at(static_cast<size_t>(layer))->params(); }

void Model::clear() {
  for (auto& l : layers_) l->clear();
  for (auto& h : hidden_) h.pre = h.normed = h.mean = h.rstd = h.act = Tensor();
}

void Model::drop_grads() {
  for (nn::Parameter* p : params()) p->grad = Tensor();
}

Tensor Model::forward(ForwardEnv& env, const Tensor& x) {
  Tensor h = x;
  for (int l = 0; l < o_.layers; ++l) {
    Tensor y = layers_[l]->forward(env, h);
    if (l == o_.layers - 1) return y;
    Hidden& hs = hidden_[l];
    const bool skip = o_.residual && h.shape() == y.shape();
    hs.skip = skip;
    hs.pre = elu_ || o_.layer_norm ? y : Tensor();
    Tensor z = y;
    if (o_.layer_norm) {
      hs.normed = Tensor::empty(y.shape(), DType::f32, env.ctx);
      hs.mean = Tensor::empty({y.rows()}, DType::f32, env.ctx);
      hs.rstd = Tensor::empty({y.rows()}, DType::f32, env.ctx);
      k::layer_norm(env.ctx, y, hs.gamma->value, hs.beta->value, 1e-5f, hs.normed, hs.mean, hs.rstd);
      z = hs.normed;
    }
    if (elu_) {
      hs.act = Tensor::empty(z.shape(), DType::f32, env.ctx);
      k::elu(env.ctx, z, hs.act);  // its backward needs z
    } else {
      k::relu(env.ctx, z, z);  // in place: relu_backward reads the output
      hs.act = z;
      if (o_.layer_norm) hs.normed = Tensor();
    }
    if (skip) {
      Tensor r = Tensor::empty(z.shape(), DType::f32, env.ctx);
      k::add(env.ctx, hs.act, h, r);
      h = r;
    } else {
      h = hs.act;
    }
  }
  return h;
}

void Model::backward(ForwardEnv& env, const Tensor& grad_logits) {
  Tensor g = grad_logits, skip;
  for (int l = o_.layers - 1; l >= 0; --l) {
    Tensor gin = layers_[l]->backward(env, std::move(g), l > 0);
    g = Tensor();
    if (l == 0) break;
    if (skip.defined()) k::add(env.ctx, gin, skip, gin);  // gradient of h_l along the skip path
    Hidden& hs = hidden_[l - 1];
    // h_l = act(...) + h_{l-1} with residuals: h_{l-1} also receives h_l's full gradient, so gin
    // is kept; otherwise the activation's backward runs in place.
    const bool keep = hs.skip;
    Tensor gz = keep ? Tensor::empty(gin.shape(), DType::f32, env.ctx) : gin;
    if (elu_) k::elu_backward(env.ctx, o_.layer_norm ? hs.normed : hs.pre, gin, gz);
    else k::relu_backward(env.ctx, hs.act, gin, gz);
    Tensor gpre = gz;
    if (o_.layer_norm) {
      gpre = Tensor::empty(gz.shape(), DType::f32, env.ctx);
      k::layer_norm_backward(env.ctx, hs.pre, hs.gamma->value, hs.mean, hs.rstd, gz, gpre, grad_of(env.ctx, *hs.gamma),
                             grad_of(env.ctx, *hs.beta));
    }
    skip = keep ? gin : Tensor();
    gin = gz = Tensor();
    hs.pre = hs.normed = hs.mean = hs.rstd = hs.act = Tensor();  // done with this layer's activations
    g = gpre;
  }
  for (nn::Parameter* p : params()) grad_of(env.ctx, *p);  // every gradient exists for the all-reduce
}

}  // namespace mlsys::gnn
