#include <limits>

#include "core/kernels/kernels.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

BACKEND_TEST("conv2d matches direct convolution with stride and padding") {
  struct Case {
    int64_t n, c, h, w, o, k;
    int stride, pad;
  };
  for (const Case& cs : {Case{2, 3, 7, 6, 4, 3, 1, 1}, Case{1, 1, 5, 5, 2, 5, 1, 0}, Case{3, 2, 9, 8, 3, 3, 2, 1},
                         Case{1, 4, 4, 4, 1, 1, 1, 0}, Case{0, 2, 5, 5, 3, 3, 1, 1}, Case{2, 3, 1, 9, 2, 1, 3, 0}}) {
    kernels::Conv2dParams p;
    p.stride_h = p.stride_w = cs.stride;
    p.pad_h = p.pad_w = cs.pad;
    Tensor x = rand_tensor({cs.n, cs.c, cs.h, cs.w}, 1), w = rand_tensor({cs.o, cs.c, cs.k, cs.k}, 2),
           b = rand_tensor({cs.o}, 3);
    Shape os = kernels::conv2d_output_shape(x.shape(), w.shape(), p);
    std::vector<float> xh = host(x), wh = host(w), bh = host(b), want(static_cast<size_t>(os.numel()));
    for (int64_t n = 0; n < cs.n; ++n)
      for (int64_t o = 0; o < cs.o; ++o)
        for (int64_t oy = 0; oy < os[2]; ++oy)
          for (int64_t ox = 0; ox < os[3]; ++ox) {
            double s = bh[static_cast<size_t>(o)];
            for (int64_t c = 0; c < cs.c; ++c)
              for (int64_t i = 0; i < cs.k; ++i)
                for (int64_t j = 0; j < cs.k; ++j) {
                  int64_t iy = oy * cs.stride - cs.pad + i, ix = ox * cs.stride - cs.pad + j;
                  if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w) continue;
                  s += xh[static_cast<size_t>(((n * cs.c + c) * cs.h + iy) * cs.w + ix)] *
                       wh[static_cast<size_t>(((o * cs.c + c) * cs.k + i) * cs.k + j)];
                }
            want[static_cast<size_t>(((n * cs.o + o) * os[2] + oy) * os[3] + ox)] = static_cast<float>(s);
          }
    Tensor out = Tensor::empty(os, DType::f32, ctx);
    kernels::conv2d(ctx, x.to(ctx), w.to(ctx), b.to(ctx), out, p);
    check_close(host(out), want, 1e-4f, 1e-4f);
  }
  kernels::Conv2dParams p;
  CHECK_THROWS_AS(kernels::conv2d_output_shape(Shape{1, 2, 3, 3}, Shape{1, 3, 3, 3}, p), Error);
  CHECK_THROWS_AS(kernels::conv2d_output_shape(Shape{1, 2, 2, 2}, Shape{1, 2, 3, 3}, p), Error);
}

BACKEND_TEST("max and average pooling match the window reference") {
  for (auto [k, s, pad] : {std::tuple<int, int, int>{2, 2, 0}, {3, 1, 1}, {3, 2, 1}, {1, 1, 0}}) {
    kernels::Pool2dParams p;
    p.kernel_h = p.kernel_w = k;
    p.stride_h = p.stride_w = s;
    p.pad_h = p.pad_w = pad;
    Tensor x = rand_tensor({2, 3, 7, 5}, 11);
    Shape os = kernels::pool2d_output_shape(x.shape(), p);
    std::vector<float> xh = host(x), mx(static_cast<size_t>(os.numel())), av(mx.size());
    for (int64_t c = 0; c < 6; ++c)
      for (int64_t oy = 0; oy < os[2]; ++oy)
        for (int64_t ox = 0; ox < os[3]; ++ox) {
          float m = -std::numeric_limits<float>::infinity(), sum = 0;
          int cnt = 0;
          for (int i = 0; i < k; ++i)
            for (int j = 0; j < k; ++j) {
              int64_t iy = oy * s - pad + i, ix = ox * s - pad + j;
              if (iy < 0 || iy >= 7 || ix < 0 || ix >= 5) continue;
              float v = xh[static_cast<size_t>((c * 7 + iy) * 5 + ix)];
              m = std::max(m, v), sum += v, ++cnt;
            }
          mx[static_cast<size_t>((c * os[2] + oy) * os[3] + ox)] = m;
          av[static_cast<size_t>((c * os[2] + oy) * os[3] + ox)] = sum / static_cast<float>(cnt);
        }
    Tensor out = Tensor::empty(os, DType::f32, ctx), arg = Tensor::empty(os, DType::i32, ctx);
    kernels::max_pool2d(ctx, x.to(ctx), out, arg, p);
    check_close(host(out), mx);
    kernels::avg_pool2d(ctx, x.to(ctx), out, p);
    check_close(host(out), av);
  }
}

BACKEND_TEST("2x2 max pooling keeps the first maximum of each window, ties included") {
  // Values from a small set so windows hold ties; the argmax must be the first maximum in
  // row-major window order, as the general window loop picks it.
  std::vector<float> v(2 * 3 * 6 * 7);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 7) % 3);
  const Tensor x = Tensor::from_vector(v, {2, 3, 6, 7});
  kernels::Pool2dParams p;
  const Shape os = kernels::pool2d_output_shape(x.shape(), p);
  REQUIRE(os == Shape{2, 3, 3, 3});
  std::vector<float> want_max;
  std::vector<int32_t> want_arg;
  for (int64_t c = 0; c < 6; ++c)
    for (int64_t oy = 0; oy < 3; ++oy)
      for (int64_t ox = 0; ox < 3; ++ox) {
        int32_t at = -1;
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j) {
            const auto pos = static_cast<int32_t>((2 * oy + i) * 7 + 2 * ox + j);
            if (at < 0 || v[static_cast<size_t>(c * 42 + pos)] > v[static_cast<size_t>(c * 42 + at)]) at = pos;
          }
        want_arg.push_back(at);
        want_max.push_back(v[static_cast<size_t>(c * 42 + at)]);
      }
  Tensor out = Tensor::empty(os, DType::f32, ctx), arg = Tensor::empty(os, DType::i32, ctx);
  kernels::max_pool2d(ctx, x.to(ctx), out, arg, p);
  CHECK(host(out) == want_max);
  CHECK(arg.to_vector<int32_t>() == want_arg);
}
