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

BACKEND_TEST("NT-Xent: value from the definition, gradient by finite differences, scale invariance") {
  // Two examples, two views each: rows 0/2 and 1/3 are the positive pairs.
  const std::vector<float> zv{1, 0, 0, 1, 2, 0.5f, -0.5f, 3};
  Tensor z = Tensor::from_vector(zv, {4, 2}).to(ctx);
  const float t = 0.5f;
  nn::NtXentLoss nt(ctx, t);
  const double got = nt.forward(z);
  std::vector<std::vector<double>> u(4, std::vector<double>(2));
  for (int i = 0; i < 4; ++i) {
    const double n = std::hypot(zv[static_cast<size_t>(2 * i)], zv[static_cast<size_t>(2 * i + 1)]);
    u[static_cast<size_t>(i)] = {zv[static_cast<size_t>(2 * i)] / n, zv[static_cast<size_t>(2 * i + 1)] / n};
  }
  double want = 0;
  for (int i = 0; i < 4; ++i) {
    double denom = 0, pos = 0;
    for (int j = 0; j < 4; ++j) {
      if (j == i) continue;
      const double s = (u[static_cast<size_t>(i)][0] * u[static_cast<size_t>(j)][0] +
                        u[static_cast<size_t>(i)][1] * u[static_cast<size_t>(j)][1]) / t;
      denom += std::exp(s);
      if (j == (i + 2) % 4) pos = s;
    }
    want += -(pos - std::log(denom)) / 4;
  }
  CHECK(got == doctest::Approx(want).epsilon(1e-5));
  // Scaling a row leaves the loss unchanged (the rows are normalized first).
  std::vector<float> scaled = zv;
  scaled[0] *= 3, scaled[1] *= 3;
  CHECK(nt.forward(Tensor::from_vector(scaled, {4, 2}).to(ctx)) == doctest::Approx(got).epsilon(1e-5));
  // A bigger batch against finite differences.
  Tensor x = rand_tensor({6, 5}, 31).to(ctx);
  nn::NtXentLoss nt2(ctx, 0.2f);
  nt2.forward(x);
  const Tensor g = nt2.backward().clone();
  auto r = nn::check_gradients([&] { return static_cast<double>(nt2.forward(x)); }, {{x, g}}, 1e-2);
  INFO(r.worst);
  CHECK(r.ok(2e-2));
  CHECK_THROWS_AS(nt2.forward(rand_tensor({3, 5}, 32).to(ctx)), Error);
  CHECK_THROWS_AS(nn::NtXentLoss(ctx, 0.f), Error);
}
