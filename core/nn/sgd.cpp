// SGD with momentum (registered as "sgd").
#include "core/kernels/kernels.hpp"
#include "core/nn/optimizer.hpp"

namespace mlsys::nn {

namespace {

class Sgd : public Optimizer {
 public:
  using Optimizer::Optimizer;
  std::string name() const override { return "sgd"; }
  void allocate_state() override {
    if (opts_.momentum != 0.0) buffers("momentum");
  }
  void step() override {
    ++steps_;
    const bool mom = opts_.momentum != 0.0;
    std::vector<Tensor>* buf = mom ? &buffers("momentum") : nullptr;
    for (size_t i = 0; i < params_.size(); ++i)
      kernels::sgd_step(ctx_, params_[i]->value, params_[i]->grad, mom ? (*buf)[i] : Tensor(),
                        static_cast<float>(opts_.lr), static_cast<float>(opts_.momentum),
                        params_[i]->decay ? static_cast<float>(opts_.weight_decay) : 0.0f, opts_.nesterov);
  }
};

}  // namespace

static const bool registered_sgd = optimizer_registry().add(
    "sgd", "SGD with momentum, optional Nesterov and L2 weight decay",
    [](DeviceContext& c, std::vector<Parameter*> p, OptimizerOptions o) { return std::make_unique<Sgd>(c, std::move(p), o); });

}  // namespace mlsys::nn
