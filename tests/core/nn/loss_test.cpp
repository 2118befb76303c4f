// Loss values against hand-computed ones, and the gradients of the MSE and the row-weighted cosine
// loss against finite differences.
#include <cmath>

#include "core/nn/grad_check.hpp"
#include "core/nn/loss.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

BACKEND_TEST("loss values: cross-entropy, cosine, MSE") {
  nn::CrossEntropyLoss ce(ctx);
  const Tensor logits = Tensor::from_vector(std::vector<float>{1, 2, 3}, {1, 3}).to(ctx);
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  CHECK(ce.forward(logits, Tensor::from_vector(std::vector<int32_t>{2}).to(ctx)) ==
        doctest::Approx(-std::log(std::exp(3.0) / z)));
  CHECK(host(ce.backward())[2] == doctest::Approx(std::exp(3.0) / z - 1));
  const Tensor a = Tensor::from_vector(std::vector<float>{1, 0}, {1, 2}).to(ctx);
  const Tensor b = Tensor::from_vector(std::vector<float>{0, 2}, {1, 2}).to(ctx);
  nn::CosineSimilarityLoss cosine(ctx);
  CHECK(cosine.forward(a, b) == doctest::Approx(1.0));
  CHECK(cosine.forward(a, a) == doctest::Approx(0.0));
  nn::MseLoss mse(ctx);
  CHECK(mse.forward(a, b) == doctest::Approx(2.5));  // (1 + 4) / 2
  CHECK(host(mse.backward()) == std::vector<float>{1.f, -2.f});  // 2 (a - b) / 2
  CHECK_THROWS_AS(mse.forward(a, Tensor::zeros({2, 1}, DType::f32, ctx)), Error);
}

BACKEND_TEST("cosine loss row weights: 1 changes nothing, 0 removes a row") {
  const Tensor p = Tensor::from_vector(std::vector<float>{1, 0.5f, -1, 2}, {2, 2}).to(ctx);
  const Tensor t = Tensor::from_vector(std::vector<float>{0.2f, 1, 1, 1}, {2, 2}).to(ctx);
  nn::CosineSimilarityLoss plain(ctx), weighted(ctx), first_row(ctx);
  const float l = plain.forward(p, t);
  CHECK(weighted.forward(p, t, Tensor::from_vector(std::vector<float>{1, 1}).to(ctx)) == l);
  CHECK(host(weighted.grad_a()) == host(plain.grad_a()));
  CHECK(host(weighted.grad_b()) == host(plain.grad_b()));
  const float half = weighted.forward(p, t, Tensor::from_vector(std::vector<float>{1, 0}).to(ctx));
  CHECK(2 * half == doctest::Approx(first_row.forward(p.rows(0, 1), t.rows(0, 1))));
  const std::vector<float> g = host(weighted.grad_a()), g1 = host(plain.grad_a());
  CHECK(g[2] == 0.0f);
  CHECK(g[3] == 0.0f);
  CHECK(g[0] == doctest::Approx(g1[0]));
  CHECK_THROWS_AS(weighted.forward(p, t, Tensor::from_vector(std::vector<float>{1, 1, 1}).to(ctx)), Error);
}

BACKEND_TEST("MSE and weighted cosine gradients match finite differences") {
  Tensor a = rand_tensor({5, 6}, 15).to(ctx), b = rand_tensor({5, 6}, 16).to(ctx);
  const Tensor w = rand_tensor({5}, 17, 0.f, 2.f).to(ctx);
  nn::CosineSimilarityLoss cosine(ctx);
  cosine.forward(a, b, w);
  Tensor ga = cosine.grad_a().clone(), gb = cosine.grad_b().clone();
  auto r1 = nn::check_gradients([&] { return static_cast<double>(cosine.forward(a, b, w)); }, {{a, ga}, {b, gb}}, 1e-2);
  INFO(r1.worst);
  CHECK(r1.ok(2e-2));
  nn::MseLoss mse(ctx);
  mse.forward(a, b);
  Tensor gm = mse.backward().clone();
  auto r2 = nn::check_gradients([&] { return static_cast<double>(mse.forward(a, b)); }, {{a, gm}}, 1e-2);
  INFO(r2.worst);
  CHECK(r2.ok(2e-2));
}
