#include "core/nn/optimizer.hpp"

namespace mlsys::nn {

Optimizer::Optimizer(DeviceContext& ctx, std::vector<Parameter*> params, OptimizerOptions opts)
    : ctx_(ctx), params_(std::move(params)), opts_(opts) {
  if (!(opts_.lr > 0)) throw ConfigError("optimizer learning rate must be > 0, got " + std::to_string(opts_.lr));
  if (opts_.weight_decay < 0) throw ConfigError("optimizer weight_decay must be >= 0");
}

void Optimizer::zero_grad() {
  for (Parameter* p : params_) p->grad.zero_();
}

std::vector<Tensor>& Optimizer::buffers(const std::string& kind) {
  for (auto& [k, v] : buffers_)
    if (k == kind) return v;
  std::vector<Tensor> v;
  for (Parameter* p : params_) v.push_back(Tensor::zeros(p->value.shape(), DType::f32, ctx_));
  buffers_.emplace_back(kind, std::move(v));
  return buffers_.back().second;
}

NamedTensors Optimizer::state() {
  NamedTensors out;
  out.emplace_back("__steps__", Tensor::from_vector(std::vector<int64_t>{steps_}));
  for (auto& [kind, v] : buffers_)
    for (size_t i = 0; i < params_.size(); ++i) out.emplace_back(params_[i]->name + "." + kind, v[i]);
  return out;
}

void Optimizer::load_state(const NamedTensors& state) {
  for (auto& [name, t] : state) {
    if (name == "__steps__") {
      steps_ = t.to_vector<int64_t>().at(0);
      continue;
    }
    bool found = false;
    for (size_t i = 0; i < params_.size() && !found; ++i) {
      const std::string& pn = params_[i]->name;
      if (name.size() > pn.size() + 1 && name.compare(0, pn.size(), pn) == 0 && name[pn.size()] == '.') {
        std::vector<Tensor>& v = buffers(name.substr(pn.size() + 1));
        if (t.numel() != v[i].numel()) throw InputError("optimizer state '" + name + "' has the wrong size");
        v[i].copy_from(t);
        found = true;
      }
    }
    if (!found) throw InputError("optimizer state '" + name + "' matches no parameter of this model");
  }
}

OptimizerRegistry& optimizer_registry() {
  static OptimizerRegistry r("optimizer");
  return r;
}

std::unique_ptr<Optimizer> make_optimizer(const std::string& name, DeviceContext& ctx, std::vector<Parameter*> params,
                                          OptimizerOptions opts) {
  return optimizer_registry().create(name, ctx, std::move(params), opts);
}

}  // namespace mlsys::nn
