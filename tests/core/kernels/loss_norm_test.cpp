#include <algorithm>
#include <limits>

#include "core/kernels/kernels.hpp"
#include "core/nn/grad_check.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

BACKEND_TEST("log_softmax, NLL and cross-entropy match the reference with masks") {
  const int64_t n = 23, c = 7;
  Tensor x = rand_tensor({n, c}, 1, -4.f, 4.f);
  std::vector<float> xh = host(x), lp(xh.size());
  for (int64_t r = 0; r < n; ++r) {
    float m = *std::max_element(xh.begin() + r * c, xh.begin() + (r + 1) * c), s = 0;
    for (int64_t j = 0; j < c; ++j) s += std::exp(xh[static_cast<size_t>(r * c + j)] - m);
    for (int64_t j = 0; j < c; ++j) lp[static_cast<size_t>(r * c + j)] = xh[static_cast<size_t>(r * c + j)] - m - std::log(s);
  }
  std::vector<int32_t> labels(n);
  std::vector<uint8_t> mask(n);
  for (int64_t r = 0; r < n; ++r) labels[static_cast<size_t>(r)] = static_cast<int32_t>((r * 5) % c), mask[static_cast<size_t>(r)] = r % 3 != 0;
  labels[4] = -1;  // ignored
  double want = 0;
  int counted = 0;
  for (int64_t r = 0; r < n; ++r)
    if (mask[static_cast<size_t>(r)] && labels[static_cast<size_t>(r)] >= 0)
      want -= lp[static_cast<size_t>(r * c + labels[static_cast<size_t>(r)])], ++counted;
  want /= counted;
  Tensor xd = x.to(ctx), lpd = Tensor::empty({n, c}, DType::f32, ctx);
  Tensor ld = Tensor::from_vector(labels).to(ctx), md = Tensor::from_vector(mask).to(ctx);
  kernels::log_softmax(ctx, xd, lpd);
  check_close(host(lpd), lp);
  Tensor g1 = Tensor::empty({n, c}, DType::f32, ctx), g2 = Tensor::empty({n, c}, DType::f32, ctx);
  CHECK(kernels::nll_loss(ctx, lpd, ld, md, g1) == doctest::Approx(want).epsilon(1e-5));
  CHECK(kernels::cross_entropy(ctx, xd, ld, md, g2) == doctest::Approx(want).epsilon(1e-5));
  // chain rule: d CE / d x = log_softmax_backward(d NLL / d logp)
  Tensor g3 = Tensor::empty({n, c}, DType::f32, ctx);
  kernels::log_softmax_backward(ctx, lpd, g1, g3);
  check_close(host(g2), host(g3), 1e-6f, 1e-4f);
  std::vector<float> g2h = host(g2);
  for (int64_t j = 0; j < c; ++j) CHECK(g2h[static_cast<size_t>(0 * c + j)] == 0.f);  // row 0 masked
  // no counted rows: zero loss, zero gradient
  Tensor none = Tensor::zeros({n}, DType::u8, ctx);
  CHECK(kernels::cross_entropy(ctx, xd, ld, none, g2) == 0.f);
  CHECK(kernels::sum_squares(ctx, g2) == 0.0);
  Tensor bad = Tensor::from_vector(std::vector<int64_t>(n, c)).to(ctx);
  CHECK_THROWS_WITH_AS(kernels::cross_entropy(ctx, xd, bad, Tensor()), doctest::Contains("classes"), Error);
}

BACKEND_TEST("cosine similarity loss matches the formula") {
  const int64_t n = 9, f = 13;
  Tensor a = rand_tensor({n, f}, 3), b = rand_tensor({n, f}, 4);
  std::vector<float> ah = host(a), bh = host(b);
  double want = 0;
  for (int64_t r = 0; r < n; ++r) {
    double xy = 0, xx = 0, yy = 0;
    for (int64_t j = 0; j < f; ++j) {
      size_t k = static_cast<size_t>(r * f + j);
      xy += ah[k] * bh[k], xx += ah[k] * ah[k], yy += bh[k] * bh[k];
    }
    want += 1 - xy / std::sqrt(xx * yy);
  }
  CHECK(kernels::cosine_similarity_loss(ctx, a.to(ctx), b.to(ctx)) == doctest::Approx(want / n).epsilon(1e-5));
  // identical rows give zero loss
  CHECK(kernels::cosine_similarity_loss(ctx, a.to(ctx), a.to(ctx)) == doctest::Approx(0.0).epsilon(1e-6));
}

BACKEND_TEST("layer_norm normalizes each row") {
  for (auto [n, f] : {std::pair<int64_t, int64_t>{6, 10}, {1, 1}, {0, 5}, {33, 257}}) {
    Tensor x = rand_tensor({n, f}, 8, -3.f, 5.f), gamma = rand_tensor({f}, 9), beta = rand_tensor({f}, 10);
    std::vector<float> xh = host(x), gh = host(gamma), bh = host(beta), want(xh.size());
    for (int64_t r = 0; r < n; ++r) {
      double mu = 0, var = 0;
      for (int64_t j = 0; j < f; ++j) mu += xh[static_cast<size_t>(r * f + j)];
      mu /= f;
      for (int64_t j = 0; j < f; ++j) var += std::pow(xh[static_cast<size_t>(r * f + j)] - mu, 2);
      var /= f;
      for (int64_t j = 0; j < f; ++j) {
        size_t k = static_cast<size_t>(r * f + j);
        want[k] = static_cast<float>((xh[k] - mu) / std::sqrt(var + 1e-5) * gh[static_cast<size_t>(j)] + bh[static_cast<size_t>(j)]);
      }
    }
    Tensor y = Tensor::empty({n, f}, DType::f32, ctx), m = Tensor::empty({n}, DType::f32, ctx),
           rs = Tensor::empty({n}, DType::f32, ctx);
    kernels::layer_norm(ctx, x.to(ctx), gamma.to(ctx), beta.to(ctx), 1e-5f, y, m, rs);
    check_close(host(y), want, 1e-4f, 1e-4f);
  }
}

BACKEND_TEST("l2_normalize_rows gives unit rows and its backward matches finite differences") {
  Tensor x = rand_tensor({4, 5}, 41).to(ctx);
  Tensor y = Tensor::empty({4, 5}, DType::f32, ctx), norm = Tensor::empty({4}, DType::f32, ctx);
  kernels::l2_normalize_rows(ctx, x, y, norm);
  const std::vector<float> hx = host(x), hy = host(y), hn = host(norm);
  for (int64_t r = 0; r < 4; ++r) {
    double ss = 0, yy = 0;
    for (int64_t j = 0; j < 5; ++j) ss += hx[r * 5 + j] * hx[r * 5 + j], yy += hy[r * 5 + j] * hy[r * 5 + j];
    CHECK(hn[static_cast<size_t>(r)] == doctest::Approx(std::sqrt(ss)));
    CHECK(yy == doctest::Approx(1.0));
  }
  // L = sum(c * y) for fixed random c: its gradient through the normalization.
  const Tensor c = rand_tensor({4, 5}, 42).to(ctx);
  auto loss = [&] {
    kernels::l2_normalize_rows(ctx, x, y, norm);
    const std::vector<float> a = host(y), b = host(c);
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
    return s;
  };
  loss();
  Tensor gx = Tensor::empty({4, 5}, DType::f32, ctx);
  kernels::l2_normalize_rows_backward(ctx, y, norm, c, gx);
  const auto r = nn::check_gradients(loss, {{x, gx.clone()}}, 1e-3);
  INFO(r.worst);
  CHECK(r.ok(1e-2));
  // A zero row stays zero and takes the eps-scaled gradient instead of dividing by zero.
  Tensor z = Tensor::zeros({1, 3}, DType::f32, ctx), zy = Tensor::empty({1, 3}, DType::f32, ctx);
  Tensor zn = Tensor::empty({1}, DType::f32, ctx), zg = Tensor::empty({1, 3}, DType::f32, ctx);
  kernels::l2_normalize_rows(ctx, z, zy, zn, 0.5f);
  CHECK(host(zy) == std::vector<float>{0, 0, 0});
  kernels::l2_normalize_rows_backward(ctx, zy, zn, Tensor::from_vector(std::vector<float>{1, 2, 3}, {1, 3}).to(ctx), zg, 0.5f);
  CHECK(host(zg) == std::vector<float>{2, 4, 6});
}
