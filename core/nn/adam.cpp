// Adam and AdamW (registered as "adam", "adamw"): one update rule, L2 vs decoupled decay.
#include "core/kernels/kernels.hpp"
#include "core/nn/optimizer.hpp"

namespace mlsys::nn {

namespace {

class Adam : public Optimizer {
 public:
  Adam(DeviceContext& ctx, std::vector<Parameter*> params, OptimizerOptions opts, bool decoupled)
      : Optimizer(ctx, std::move(params), opts), decoupled_(decoupled) {}
  std::string name() const override { return decoupled_ ? "adamw" : "adam"; }
  void allocate_state() override {
    buffers("m");
    buffers("v");
  }
  void step() override {
    ++steps_;
    std::vector<Tensor>& m = buffers("m");
    std::vector<Tensor>& v = buffers("v");
    kernels::AdamParams a;
    a.lr = static_cast<float>(opts_.lr);
    a.beta1 = static_cast<float>(opts_.beta1);
    a.beta2 = static_cast<float>(opts_.beta2);
    a.eps = static_cast<float>(opts_.eps);
    a.decoupled = decoupled_;
    a.step = steps_;
    for (size_t i = 0; i < params_.size(); ++i) {
      a.weight_decay = params_[i]->decay ? static_cast<float>(opts_.weight_decay) : 0.0f;
      kernels::adam_step(ctx_, params_[i]->value, params_[i]->grad, m[i], v[i], a);
    }
  }

 private:
  bool decoupled_;
};

}  // namespace

static const bool registered_adam = optimizer_registry().add(
    "adam", "Adam with bias correction; weight decay added to the gradient (L2)",
    [](DeviceContext& c, std::vector<Parameter*> p, OptimizerOptions o) {
      return std::make_unique<Adam>(c, std::move(p), o, false);
    });
static const bool registered_adamw = optimizer_registry().add(
    "adamw", "AdamW: Adam with decoupled weight decay",
    [](DeviceContext& c, std::vector<Parameter*> p, OptimizerOptions o) {
      return std::make_unique<Adam>(c, std::move(p), o, true);
    });

}  // namespace mlsys::nn
