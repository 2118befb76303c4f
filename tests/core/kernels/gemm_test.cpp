#include "core/kernels/kernels.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

namespace {
// C = alpha op(A) op(B) + beta C on the host, the obvious triple loop.
std::vector<float> naive_gemm(const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c, float alpha,
                              float beta) {
  const int64_t m = c.dim(0), n = c.dim(1), k = ta ? a.dim(0) : a.dim(1);
  std::vector<float> av = host(a), bv = host(b), cv = host(c);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) {
        float x = ta ? av[p * a.dim(1) + i] : av[i * a.dim(1) + p];
        float y = tb ? bv[j * b.dim(1) + p] : bv[p * b.dim(1) + j];
        s += static_cast<double>(x) * y;
      }
      cv[i * n + j] = static_cast<float>(alpha * s + (beta == 0.f ? 0.0 : beta * cv[i * n + j]));
    }
  return cv;
}
}  // namespace

BACKEND_TEST("gemm matches the naive product for all transposes and odd sizes") {
  struct Case {
    int64_t m, n, k;
  };
  const Case cases[] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 65}, {64, 1, 9}, {0, 4, 3}, {3, 0, 2}, {5, 4, 0}, {128, 96, 80}};
  uint64_t seed = 1;
  for (const Case& cs : cases)
    for (int t = 0; t < 4; ++t) {
      const bool ta = t & 1, tb = t & 2;
      CAPTURE(cs.m); CAPTURE(cs.n); CAPTURE(cs.k); CAPTURE(ta); CAPTURE(tb);
      Tensor a = rand_tensor(ta ? Shape{cs.k, cs.m} : Shape{cs.m, cs.k}, seed++);
      Tensor b = rand_tensor(tb ? Shape{cs.n, cs.k} : Shape{cs.k, cs.n}, seed++);
      Tensor c = rand_tensor({cs.m, cs.n}, seed++);
      const float alpha = 0.5f + static_cast<float>(t), beta = t == 3 ? 0.f : 0.25f;
      std::vector<float> want = naive_gemm(a, ta, b, tb, c, alpha, beta);
      Tensor cd = c.to(ctx);
      kernels::gemm(ctx, a.to(ctx), ta, b.to(ctx), tb, cd, alpha, beta);
      check_close(host(cd), want, 1e-4f, 1e-4f);
    }
}

BACKEND_TEST("gemm rejects mismatched shapes with a clear message") {
  Tensor a = Tensor::zeros({2, 3}, DType::f32, ctx), b = Tensor::zeros({4, 5}, DType::f32, ctx);
  Tensor c = Tensor::zeros({2, 5}, DType::f32, ctx);
  CHECK_THROWS_WITH_AS(kernels::gemm(ctx, a, false, b, false, c), doctest::Contains("inner sizes"), Error);
}

TEST_CASE("kernels reject tensors on another device") {
  if (!cuda_present()) {
    // Only observable with two devices; on the host check the dtype error instead.
    DeviceContext ctx(Device::cpu());
    Tensor a = Tensor::zeros({2, 2}, DType::i32);
    Tensor c = Tensor::zeros({2, 2});
    CHECK_THROWS_WITH_AS(kernels::gemm(ctx, a, false, c, false, c), doctest::Contains("must be f32"), Error);
    return;
  }
  DeviceContext gpu(Device::cuda(0));
  Tensor a = Tensor::zeros({2, 2});
  CHECK_THROWS_WITH_AS(kernels::gemm(gpu, a, false, a, false, a), doctest::Contains("not on the context's device"), Error);
}
