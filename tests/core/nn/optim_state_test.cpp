#include <cmath>

#include "core/kernels/kernels.hpp"
#include "core/nn/layers.hpp"
#include "core/nn/optimizer.hpp"
#include "core/nn/state.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

namespace {
// f(w) = 0.5 * sum (w - t)^2, gradient w - t: every optimizer must approach t.
double run_quadratic(DeviceContext& ctx, const std::string& name, nn::OptimizerOptions o, int steps) {
  nn::Parameter p{"w", rand_tensor({10}, 1, -3.f, 3.f).to(ctx), Tensor::zeros({10}, DType::f32, ctx)};
  Tensor target = rand_tensor({10}, 2).to(ctx);
  auto opt = nn::make_optimizer(name, ctx, {&p}, o);
  for (int s = 0; s < steps; ++s) {
    opt->zero_grad();
    p.grad.copy_from(p.value);
    kernels::axpy(ctx, -1.f, target, p.grad);
    opt->step();
  }
  Tensor diff = p.value.clone();
  kernels::axpy(ctx, -1.f, target, diff);
  return kernels::sum_squares(ctx, diff);
}
}  // namespace

BACKEND_TEST("optimizers minimize a quadratic") {
  nn::OptimizerOptions sgd;
  sgd.lr = 0.1;
  const double start = run_quadratic(ctx, "sgd", sgd, 0);
  CHECK(run_quadratic(ctx, "sgd", sgd, 100) < 1e-6 * start);
  sgd.momentum = 0.9;
  CHECK(run_quadratic(ctx, "sgd", sgd, 150) < 1e-6 * start);
  sgd.nesterov = true;
  CHECK(run_quadratic(ctx, "sgd", sgd, 150) < 1e-6 * start);
  nn::OptimizerOptions adam;
  adam.lr = 0.05;
  CHECK(run_quadratic(ctx, "adam", adam, 400) < 1e-3 * start);
  CHECK(run_quadratic(ctx, "adamw", adam, 400) < 1e-3 * start);
  // weight decay pulls the optimum towards zero: the distance to the target stays positive
  adam.weight_decay = 0.5;
  CHECK(run_quadratic(ctx, "adamw", adam, 400) > 1e-3);
  CHECK_THROWS_WITH_AS(nn::make_optimizer("adagrad", ctx, {}, adam), doctest::Contains("valid: adam, adamw, sgd"),
                       ConfigError);
}

BACKEND_TEST("one Adam step matches the update formula") {
  nn::Parameter p{"w", Tensor::from_vector(std::vector<float>{1.f, -2.f}).to(ctx), Tensor::zeros({2}, DType::f32, ctx)};
  p.grad.copy_from(Tensor::from_vector(std::vector<float>{0.5f, 0.25f}));
  nn::OptimizerOptions o;
  o.lr = 0.1;
  o.weight_decay = 0.01;
  auto opt = nn::make_optimizer("adamw", ctx, {&p}, o);
  opt->step();
  // step 1: m_hat = g, v_hat = g^2 -> update lr * g/(|g| + eps) = lr * sign(g); decay lr*wd*w first
  std::vector<float> w = host(p.value);
  CHECK(w[0] == doctest::Approx(1.f - 0.1f * 0.01f * 1.f - 0.1f).epsilon(1e-5));
  CHECK(w[1] == doctest::Approx(-2.f + 0.1f * 0.01f * 2.f - 0.1f).epsilon(1e-5));
}

TEST_CASE("the host Adam step equals the scalar update element for element") {
  // The CPU kernel is vectorized; packed IEEE operations must give exactly the scalar results.
  DeviceContext ctx(Device::cpu());
  const int64_t n = 1000;
  Tensor p = rand_tensor({n}, 3), g = rand_tensor({n}, 4), m = rand_tensor({n}, 5, -0.1f, 0.1f), v = rand_tensor({n}, 6, 0.f, 0.1f);
  std::vector<float> pr = host(p), gr = host(g), mr = host(m), vr = host(v);
  for (bool decoupled : {false, true}) {
    kernels::AdamParams a;
    a.lr = 0.01f, a.weight_decay = 0.1f, a.decoupled = decoupled, a.step = 3;
    kernels::adam_step(ctx, p, g, m, v, a);
    const float bc1 = 1.f - std::pow(a.beta1, 3.f), bc2 = 1.f - std::pow(a.beta2, 3.f);
    const float step_size = a.lr / bc1, inv_sqrt_bc2 = 1.f / std::sqrt(bc2);
    for (int64_t i = 0; i < n; ++i) {
      float gi = gr[i];
      if (decoupled) pr[i] -= a.lr * a.weight_decay * pr[i];
      else gi += a.weight_decay * pr[i];
      mr[i] = a.beta1 * mr[i] + (1.f - a.beta1) * gi;
      vr[i] = a.beta2 * vr[i] + (1.f - a.beta2) * gi * gi;
      pr[i] -= step_size * mr[i] / (std::sqrt(vr[i]) * inv_sqrt_bc2 + a.eps);
    }
    CHECK(host(p) == pr);
    CHECK(host(m) == mr);
    CHECK(host(v) == vr);
  }
}

BACKEND_TEST("loading into a context allocates there") {
  nn::Sequential a(ctx), b(ctx);
  a.add<nn::Linear>(4, 3, 1);
  b.add<nn::Linear>(4, 3, 2);
  const std::vector<uint8_t> blob = nn::save_parameters(a.parameters());
  DeviceContext other(ctx.device(), 0, "load-target");
  const nn::NamedTensors t = nn::load_tensors(blob, other);
  REQUIRE(t.size() == 2);
  CHECK(t[0].second.device() == ctx.device());
  CHECK(other.pool().stats().allocations == 2);
  nn::load_parameters(b.parameters(), blob, other);
  CHECK(host(b.parameters()[0]->value) == host(a.parameters()[0]->value));
}

BACKEND_TEST("weight decay skips parameters whose decay flag is off (adam, adamw, sgd)") {
  for (std::string name : {"adam", "adamw", "sgd"}) {
    CAPTURE(name);
    // Zero gradients: only weight decay can move a parameter.
    nn::Parameter w{"w", Tensor::from_vector(std::vector<float>{1.f, -2.f}).to(ctx), Tensor::zeros({2}, DType::f32, ctx)};
    nn::Parameter b{"b", Tensor::from_vector(std::vector<float>{1.f, -2.f}).to(ctx), Tensor::zeros({2}, DType::f32, ctx)};
    b.decay = false;
    nn::OptimizerOptions o;
    o.lr = 0.1;
    o.weight_decay = 0.5;
    auto opt = nn::make_optimizer(name, ctx, {&w, &b}, o);
    opt->step();
    CHECK(std::abs(host(w.value)[0]) < 1.f);  // decayed towards zero
    CHECK(host(b.value) == std::vector<float>{1.f, -2.f});
  }
}

BACKEND_TEST("parameters and optimizer state save and load through a blob") {
  nn::Sequential a(ctx), b(ctx);
  a.add<nn::Linear>(4, 3, 1);
  a.add<nn::LayerNorm>(3);
  b.add<nn::Linear>(4, 3, 2);
  b.add<nn::LayerNorm>(3);
  std::vector<uint8_t> blob = nn::save_parameters(a.parameters());
  nn::load_parameters(b.parameters(), blob);
  for (size_t i = 0; i < a.parameters().size(); ++i)
    CHECK(host(a.parameters()[i]->value) == host(b.parameters()[i]->value));
  // optimizer state round trip
  nn::OptimizerOptions o;
  auto opt = nn::make_optimizer("adam", ctx, a.parameters(), o);
  for (auto* p : a.parameters()) kernels::fill(ctx, p->grad, 0.5f);
  opt->step();
  std::vector<uint8_t> st = nn::save_tensors(opt->state());
  auto opt2 = nn::make_optimizer("adam", ctx, b.parameters(), o);
  opt2->load_state(nn::load_tensors(st));
  CHECK(opt2->steps() == 1);
  CHECK(host(opt2->state()[1].second) == host(opt->state()[1].second));
  // errors
  nn::Sequential c(ctx);
  c.add<nn::Linear>(5, 3, 1);
  CHECK_THROWS_WITH_AS(nn::load_parameters(c.parameters(), blob), doctest::Contains("0.weight"), InputError);
  blob.resize(blob.size() - 3);
  CHECK_THROWS_WITH_AS(nn::load_tensors(blob), doctest::Contains("truncated"), InputError);
  CHECK_THROWS_AS(nn::load_tensors(std::vector<uint8_t>{1, 2, 3}), InputError);
}

TEST_CASE("clip_grad_norm scales gradients to the requested norm") {
  DeviceContext& ctx = cpu_context();
  nn::Parameter p{"w", Tensor::zeros({2}), Tensor::from_vector(std::vector<float>{3.f, 4.f})};
  CHECK(nn::clip_grad_norm(ctx, {&p}, 1.0) == doctest::Approx(5.0));
  CHECK(host(p.grad)[0] == doctest::Approx(0.6f));
  CHECK(nn::clip_grad_norm(ctx, {&p}, 10.0) == doctest::Approx(1.0));
}

namespace {
// Creates many buffer kinds in one step while holding the first one's reference, as Adam holds
// "m" while its first step creates "v".
class ManyBuffers final : public nn::Optimizer {
 public:
  using nn::Optimizer::Optimizer;
  void step() override {
    std::vector<Tensor>& first = buffers("first");
    first_address = &first;
    for (int k = 0; k < 64; ++k) buffers("kind" + std::to_string(k));
    first_after = &buffers("first");
  }
  std::string name() const override { return "many-buffers"; }
  const void* first_address = nullptr;
  const void* first_after = nullptr;
};
}  // namespace

// The optimizer-state lists must not move when a later kind is created: Adam's first step read
// "m" through a reference that creating "v" had freed (found by valgrind in the coopt quickstart,
// a segfault that showed only under some environments' heap layouts).
BACKEND_TEST("optimizer state buffers keep their place when later kinds are created") {
  nn::Parameter p{"w", Tensor::zeros({4}, DType::f32, ctx), Tensor::zeros({4}, DType::f32, ctx)};
  ManyBuffers opt(ctx, {&p}, nn::OptimizerOptions{});
  opt.step();
  CHECK(opt.first_address == opt.first_after);
}
