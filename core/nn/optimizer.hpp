#pragma once
// Optimizers over a list of Parameters (their gradients must already be summed / all-reduced).
// Weight decay applies to the parameters whose `decay` flag is set.
// Created by name through optimizer_registry(): "sgd" (momentum, nesterov, weight decay),
// "adam" (L2 weight decay added to the gradient), "adamw" (decoupled weight decay).
//
//   auto opt = nn::make_optimizer("adamw", net.parameters(), {.lr = 1e-3, .weight_decay = 0.01});
//   opt->zero_grad(); ... backward ...; opt->step();
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/nn/module.hpp"
#include "core/nn/state.hpp"
#include "core/registry/registry.hpp"

namespace mlsys::nn {

struct OptimizerOptions {
  double lr = 1e-2;
  double momentum = 0.0;  // sgd
  bool nesterov = false;  // sgd
  double beta1 = 0.9;     // adam(w)
  double beta2 = 0.999;   // adam(w)
  double eps = 1e-8;      // adam(w)
  double weight_decay = 0.0;
};

class Optimizer {
 public:
  Optimizer(DeviceContext& ctx, std::vector<Parameter*> params, OptimizerOptions opts);
  virtual ~Optimizer() = default;
  virtual void step() = 0;
  virtual std::string name() const = 0;
  // Creates the state buffers now rather than at the first step (a trainer lays its memory out
  // before training starts; a checkpoint's state can then be loaded into them).
  virtual void allocate_state() {}
  void zero_grad();
  int64_t steps() const { return steps_; }
  OptimizerOptions& options() { return opts_; }  // e.g. to change lr on a schedule
  const std::vector<Parameter*>& params() const { return params_; }
  // Moment buffers etc. named "<param>.<buffer>", plus the step count, for checkpoints.
  NamedTensors state();
  void load_state(const NamedTensors& state);

 protected:
  // Zero buffer shaped like each parameter (created on first use). The reference stays valid when
  // later kinds are created (Adam holds "m" while it creates "v" on its first step).
  std::vector<Tensor>& buffers(const std::string& kind);

  DeviceContext& ctx_;
  std::vector<Parameter*> params_;
  OptimizerOptions opts_;
  int64_t steps_ = 0;
  std::deque<std::pair<std::string, std::vector<Tensor>>> buffers_;  // a deque: emplace_back moves no element
};

using OptimizerRegistry = Registry<Optimizer, DeviceContext&, std::vector<Parameter*>, OptimizerOptions>;
OptimizerRegistry& optimizer_registry();
std::unique_ptr<Optimizer> make_optimizer(const std::string& name, DeviceContext& ctx, std::vector<Parameter*> params,
                                          OptimizerOptions opts);

}  // namespace mlsys::nn
