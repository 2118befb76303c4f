#include "core/nn/module.hpp"

#include <cmath>

#include "core/kernels/kernels.hpp"

namespace mlsys::nn {

void Module::zero_grad() {
  for (Parameter* p : parameters())
    if (p->grad.defined()) p->grad.zero_();
}

Parameter Module::make_parameter(const std::string& name, const Tensor& host_value) {
  Parameter p;
  p.name = name;
  p.value = host_value.device() == ctx_.device() ? host_value : host_value.to(ctx_);
  p.grad = Tensor::zeros(host_value.shape(), DType::f32, ctx_);
  return p;
}

void Sequential::append(std::unique_ptr<Module> m) {
  m->train(training_);
  // Qualify names once, when the layer joins (nested containers prefix again: "1.0.weight").
  for (Parameter* p : m->parameters()) p->name = std::to_string(layers_.size()) + "." + p->name;
  layers_.push_back(std::move(m));
}

Tensor Sequential::forward(const Tensor& x) {
  Tensor h = x;
  for (auto& l : layers_) h = l->forward(h);
  return h;
}

Tensor Sequential::backward(const Tensor& grad_out) {
  if (!layers_.empty()) layers_.front()->set_input_grad(input_grad_);
  Tensor g = grad_out;
  for (size_t i = layers_.size(); i-- > 0;) g = layers_[i]->backward(g);
  return g;
}

std::vector<Parameter*> Sequential::parameters() {
  std::vector<Parameter*> out;
  for (size_t i = 0; i < layers_.size(); ++i)
    for (Parameter* p : layers_[i]->parameters()) out.push_back(p);
  return out;
}

void Sequential::train(bool on) {
  Module::train(on);
  for (auto& l : layers_) l->train(on);
}

double clip_grad_norm(DeviceContext& ctx, const std::vector<Parameter*>& params, double max_norm) {
  double ss = 0;
  for (Parameter* p : params) ss += kernels::sum_squares(ctx, p->grad);
  const double norm = std::sqrt(ss);
  if (norm > max_norm && norm > 0) {
    const float s = static_cast<float>(max_norm / norm);
    for (Parameter* p : params) kernels::scale(ctx, p->grad, s, p->grad);
  }
  return norm;
}

}  // namespace mlsys::nn
