// Every layer's backward against finite differences of its forward (double-checked through a
// random projection loss L = sum(y * r), so dL/dy = r).
#include "core/kernels/kernels.hpp"
#include "core/nn/grad_check.hpp"
#include "core/nn/layers.hpp"
#include "core/nn/loss.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

namespace {
double dot_host(const Tensor& a, const Tensor& b) {
  std::vector<float> x = host(a), y = host(b);
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) s += static_cast<double>(x[i]) * y[i];
  return s;
}

// Checks d(sum(y * r))/d(input) and /d(params) for a module.
void check_module(DeviceContext& ctx, nn::Module& m, const Tensor& x_host, double tol = 2e-2, double eps = 1e-2) {
  Tensor x = x_host.to(ctx);
  m.zero_grad();
  Tensor y = m.forward(x);
  Tensor r = rand_tensor(y.shape(), 99).to(ctx);
  Tensor gx = m.backward(r);
  std::vector<std::pair<Tensor, Tensor>> pairs = {{x, gx}};
  for (nn::Parameter* p : m.parameters()) pairs.emplace_back(p->value, p->grad);
  auto loss = [&] { return dot_host(m.forward(x), r); };
  nn::GradCheckResult res = nn::check_gradients(loss, pairs, eps, 40);
  INFO(m.name() << ": " << res.worst);
  CHECK(res.checked > 0);
  CHECK(res.ok(tol));
}
}  // namespace

BACKEND_TEST("Linear gradients match finite differences") {
  nn::Linear lin(ctx, 7, 5, 3);
  check_module(ctx, lin, rand_tensor({4, 7}, 1));
  nn::Linear nob(ctx, 3, 2, 4, false);
  CHECK(nob.parameters().size() == 1);
  check_module(ctx, nob, rand_tensor({6, 3}, 2));
}

BACKEND_TEST("activation gradients match finite differences") {
  // Inputs kept away from the kink at 0 so central differences are valid.
  Tensor x = rand_tensor({5, 6}, 3, 0.1f, 1.f);
  std::vector<float> xv = host(x);
  for (size_t i = 0; i < xv.size(); i += 2) xv[i] = -xv[i];
  Tensor xs = Tensor::from_vector(xv, {5, 6});
  nn::ReLU relu(ctx);
  check_module(ctx, relu, xs);
  nn::LeakyReLU leaky(ctx, 0.1f);
  check_module(ctx, leaky, xs);
  nn::ELU elu(ctx, 0.8f);
  check_module(ctx, elu, xs);
  nn::LogSoftmax ls(ctx);
  check_module(ctx, ls, rand_tensor({4, 5}, 5));
}

BACKEND_TEST("LayerNorm gradients match finite differences") {
  nn::LayerNorm ln(ctx, 8);
  // non-trivial gamma/beta
  ln.parameters()[0]->value.copy_from(rand_tensor({8}, 6, 0.5f, 1.5f));
  ln.parameters()[1]->value.copy_from(rand_tensor({8}, 7));
  check_module(ctx, ln, rand_tensor({5, 8}, 8, -2.f, 2.f), 3e-2, 5e-3);
}

BACKEND_TEST("Conv2d and pooling gradients match finite differences") {
  nn::Conv2d conv(ctx, 2, 3, 3, 1, 1, 9);
  check_module(ctx, conv, rand_tensor({2, 2, 5, 4}, 10));
  nn::Conv2d strided(ctx, 1, 2, 2, 2, 0, 11);
  check_module(ctx, strided, rand_tensor({1, 1, 6, 6}, 12));
  // Max pooling: distinct values so the argmax is stable under the perturbation.
  std::vector<float> v(2 * 2 * 6 * 6);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) * 0.1f;
  nn::MaxPool2d mp(ctx, 2);
  check_module(ctx, mp, Tensor::from_vector(v, {2, 2, 6, 6}));
  nn::AvgPool2d ap(ctx, 3, 2, 1);
  check_module(ctx, ap, rand_tensor({1, 2, 7, 6}, 13));
  nn::Flatten fl(ctx);
  Tensor y = fl.forward(rand_tensor({3, 2, 2, 2}, 1).to(ctx));
  CHECK(y.shape() == Shape{3, 8});
  CHECK(fl.backward(y).shape() == Shape{3, 2, 2, 2});
}

BACKEND_TEST("loss gradients match finite differences") {
  Tensor logits = rand_tensor({6, 4}, 14, -2.f, 2.f).to(ctx);
  Tensor labels = Tensor::from_vector(std::vector<int64_t>{0, 3, 1, 2, 2, -1}).to(ctx);
  Tensor mask = Tensor::from_vector(std::vector<uint8_t>{1, 1, 0, 1, 1, 1}).to(ctx);
  nn::CrossEntropyLoss ce(ctx);
  ce.forward(logits, labels, mask);
  auto r1 = nn::check_gradients([&] { return static_cast<double>(ce.forward(logits, labels, mask)); },
                                {{logits, ce.backward()}}, 1e-2);
  INFO(r1.worst);
  CHECK(r1.ok(2e-2));
  // NLL on log-probabilities
  nn::LogSoftmax ls(ctx);
  Tensor lp = ls.forward(logits);
  nn::NllLoss nll(ctx);
  nll.forward(lp, labels, mask);
  auto r2 = nn::check_gradients([&] { return static_cast<double>(nll.forward(lp, labels, mask)); }, {{lp, nll.backward()}});
  CHECK(r2.ok(2e-2));
  // cosine similarity, both inputs
  Tensor a = rand_tensor({5, 6}, 15).to(ctx), b = rand_tensor({5, 6}, 16).to(ctx);
  nn::CosineSimilarityLoss cl(ctx);
  cl.forward(a, b);
  Tensor ga = cl.grad_a().clone(), gb = cl.grad_b().clone();
  auto r3 = nn::check_gradients([&] { return static_cast<double>(cl.forward(a, b)); }, {{a, ga}, {b, gb}}, 1e-2);
  INFO(r3.worst);
  CHECK(r3.ok(2e-2));
}

BACKEND_TEST("Sequential chains layers, names parameters and Dropout is seeded") {
  nn::Sequential net(ctx);
  net.add<nn::Linear>(6, 8, 1);
  net.add<nn::ReLU>();
  net.add<nn::Dropout>(0.25f, 7);
  net.add<nn::Linear>(8, 3, 2);
  auto params = net.parameters();
  REQUIRE(params.size() == 4);
  CHECK(params[0]->name == "0.weight");
  CHECK(params[3]->name == "3.bias");
  Tensor x = rand_tensor({5, 6}, 20).to(ctx);
  Tensor y1 = net.forward(x);
  Tensor y2 = net.forward(x);
  CHECK(host(y1) != host(y2));  // a fresh dropout mask per call
  net.train(false);
  Tensor e1 = net.forward(x), e2 = net.forward(x);
  CHECK(host(e1) == host(e2));  // eval: deterministic, no dropout
  // The gradient through the whole chain in eval-like mode (dropout p=0) matches finite differences.
  nn::Sequential plain(ctx);
  plain.add<nn::Linear>(6, 8, 1);
  plain.add<nn::ELU>();
  plain.add<nn::LayerNorm>(8);
  plain.add<nn::Linear>(8, 3, 2);
  check_module(ctx, plain, rand_tensor({4, 6}, 21));
}

BACKEND_TEST("L2Normalize layer: unit rows, gradient by finite differences") {
  nn::Sequential net(ctx);
  net.add<nn::Linear>(4, 3, 5);
  net.add<nn::L2Normalize>();
  Tensor x = rand_tensor({5, 4}, 50).to(ctx);
  const Tensor c = rand_tensor({5, 3}, 51).to(ctx);
  auto loss = [&] {
    const std::vector<float> y = host(net.forward(x)), w = host(c);
    double s = 0;
    for (size_t i = 0; i < y.size(); ++i) s += static_cast<double>(y[i]) * w[i];
    return s;
  };
  const std::vector<float> y = host(net.forward(x));
  for (int r = 0; r < 5; ++r)
    CHECK(std::hypot(y[static_cast<size_t>(3 * r)], y[static_cast<size_t>(3 * r + 1)], y[static_cast<size_t>(3 * r + 2)]) ==
          doctest::Approx(1.0));
  net.zero_grad();
  net.forward(x);
  const Tensor gx = net.backward(c);
  auto params = net.parameters();
  auto r = nn::check_gradients(loss, {{x, gx.clone()}, {params[0]->value, params[0]->grad.clone()}}, 1e-3);
  INFO(r.worst);
  CHECK(r.ok(2e-2));
}
