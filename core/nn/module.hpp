#pragma once
// Layers with explicit forward and backward, shared by gnn/ and dataopt/.
//
//   nn::Sequential net(ctx);
//   net.add<nn::Linear>(128, 64, /*seed=*/1);
//   net.add<nn::ReLU>();
//   Tensor y = net.forward(x);        // caches what backward needs (training mode)
//   Tensor gx = net.backward(gy);     // accumulates parameter gradients, returns d loss / d x
//   for (nn::Parameter* p : net.parameters()) all_reduce(p->grad);
//
// A Module runs on one DeviceContext (given at construction); its tensors live on that device.
// forward() allocates its outputs from the context's pool. backward() must follow the forward
// whose input it differentiates; parameter gradients accumulate (+=) until zero_grad().
#include <memory>
#include <string>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::nn {

// A trainable tensor and its gradient (same shape, device). `name` is unique within a model
// ("0.weight") and keys checkpoints. The project's one parameter type (nn modules, the GNN layers).
struct Parameter {
  std::string name;
  Tensor value;
  Tensor grad;
  bool decay = true;  // the optimizer's weight decay applies (models usually exempt biases and norms)
};

class Module {
 public:
  explicit Module(DeviceContext& ctx) : ctx_(ctx) {}
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  virtual Tensor forward(const Tensor& x) = 0;
  virtual Tensor backward(const Tensor& grad_out) = 0;
  virtual std::string name() const = 0;
  // Parameters in a stable order; pointers stay valid for the module's lifetime.
  virtual std::vector<Parameter*> parameters() { return {}; }
  // Training mode (default) caches for backward and applies dropout; eval mode does neither.
  virtual void train(bool on) { training_ = on; }
  bool training() const { return training_; }
  void zero_grad();
  DeviceContext& ctx() const { return ctx_; }
  // Whether backward() must return d loss / d input. The first layer of a network need not (its
  // input is data, and that product is a large part of its backward): with false, layers that can
  // skip it (Linear, Conv2d) return an undefined Tensor. A Sequential passes it to its first layer.
  void set_input_grad(bool needed) { input_grad_ = needed; }
  bool input_grad() const { return input_grad_; }

 protected:
  // A parameter initialized from host values (moved to ctx) with a zero gradient.
  Parameter make_parameter(const std::string& name, const Tensor& host_value);
  Tensor output_like(const Shape& s) const { return Tensor::empty(s, DType::f32, ctx_); }

  DeviceContext& ctx_;
  bool training_ = true;
  bool input_grad_ = true;
};

// Chains modules; parameter names are prefixed with the module's position ("2.weight").
class Sequential : public Module {
 public:
  explicit Sequential(DeviceContext& ctx) : Module(ctx) {}
  template <class M, class... Args>
  M& add(Args&&... args) {
    auto m = std::make_unique<M>(ctx_, std::forward<Args>(args)...);
    M& ref = *m;
    append(std::move(m));
    return ref;
  }
  void append(std::unique_ptr<Module> m);
  size_t size() const { return layers_.size(); }
  Module& operator[](size_t i) { return *layers_[i]; }

  Tensor forward(const Tensor& x) override;
  Tensor backward(const Tensor& grad_out) override;
  std::string name() const override { return "Sequential"; }
  std::vector<Parameter*> parameters() override;
  void train(bool on) override;

 private:
  std::vector<std::unique_ptr<Module>> layers_;
};

// Sum of squares of every gradient, then scales gradients so the global L2 norm is <= max_norm.
// Returns the norm before clipping.
double clip_grad_norm(DeviceContext& ctx, const std::vector<Parameter*>& params, double max_norm);

}  // namespace mlsys::nn
