// Kaiming-uniform initialization from mlsys::Rng, and layers that skip their input gradient.
#include <cmath>

#include "core/nn/init.hpp"
#include "core/nn/layers.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

TEST_CASE("kaiming_uniform: seeded, inside the bound, unit-scale variance, one stream") {
  Rng a(3), b(3);
  const std::vector<float> x = host(nn::kaiming_uniform(a, {200, 50}, 50)), y = host(nn::kaiming_uniform(b, {200, 50}, 50));
  CHECK(x == y);
  const double bound = std::sqrt(6.0 / 50);
  double s = 0, q = 0;
  for (float v : x) {
    CHECK(std::fabs(v) <= bound);
    s += v, q += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(x.size());
  CHECK(std::fabs(s / n) < 0.01);
  CHECK(q / n == doctest::Approx(bound * bound / 3).epsilon(0.05));  // U(-b, b) has variance b^2 / 3
  // The next draw continues the stream: not a repeat of the first.
  CHECK(host(nn::kaiming_uniform(a, {200, 50}, 50)) != x);
  CHECK_THROWS_AS(nn::kaiming_uniform(a, {2, 2}, 0), Error);
}

BACKEND_TEST("layers built with KaimingUniform draw from one Rng, biases zero") {
  Rng rng(5), again(5);
  nn::Linear l1(ctx, 6, 4, nn::KaimingUniform{rng});
  nn::Linear l2(ctx, 6, 4, nn::KaimingUniform{rng});
  nn::Linear l1_again(ctx, 6, 4, nn::KaimingUniform{again});
  CHECK(host(l1.weight().value) == host(l1_again.weight().value));
  CHECK(host(l1.weight().value) != host(l2.weight().value));
  CHECK(host(l1.bias().value) == std::vector<float>(4, 0.f));
  CHECK(l1.weight().value.device() == ctx.device());
  nn::Conv2d conv(ctx, 2, 3, 3, 1, 1, nn::KaimingUniform{rng});
  const double bound = std::sqrt(6.0 / (2 * 3 * 3));
  for (float v : host(conv.parameters()[0]->value)) CHECK(std::fabs(v) <= bound);
  CHECK(host(conv.parameters()[1]->value) == std::vector<float>(3, 0.f));
}

BACKEND_TEST("without an input gradient, backward returns none and the same parameter gradients") {
  Rng r1(7), r2(7);
  nn::Sequential with(ctx), without(ctx);
  for (nn::Sequential* s : {&with, &without}) {
    Rng& rng = s == &with ? r1 : r2;
    s->add<nn::Conv2d>(1, 2, 3, 1, 1, nn::KaimingUniform{rng});
    s->add<nn::ReLU>();
    s->add<nn::Flatten>();
    s->add<nn::Linear>(2 * 4 * 4, 3, nn::KaimingUniform{rng});
  }
  without.set_input_grad(false);
  const Tensor x = rand_tensor({2, 1, 4, 4}, 1).to(ctx), g = rand_tensor({2, 3}, 2).to(ctx);
  with.forward(x);
  without.forward(x);
  CHECK(with.backward(g).defined());
  CHECK_FALSE(without.backward(g).defined());
  for (size_t i = 0; i < with.parameters().size(); ++i)
    CHECK(host(with.parameters()[i]->grad) == host(without.parameters()[i]->grad));
  nn::Linear lin(ctx, 3, 2, 1);
  lin.set_input_grad(false);
  lin.forward(rand_tensor({4, 3}, 3).to(ctx));
  CHECK_FALSE(lin.backward(rand_tensor({4, 2}, 4).to(ctx)).defined());
}
