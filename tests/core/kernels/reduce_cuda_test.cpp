// The CUDA reductions (column sums, full sums, counts, losses, LayerNorm and
// conv bias gradients) at the sizes of the GNN trainer (1M rows x 128 columns)
// and at odd, tiny, very tall, very wide and empty shapes: each must equal the
// host kernel's result up to float rounding and repeat bit for bit on the GPU.
// CUDA-only cases: they skip with the reason where the cuda backend is
// unavailable, and the host runs only as their reference (the [cpu] tests of
// these kernels use small shapes).
//
// Two kinds of data. Dyadic data (multiples of 1/4 in [-1, 1], products with
// powers of two) make every sum exact in any order, so the GPU must give the
// host's bits exactly: that catches a lost or doubled element. Uniform random
// data check the rounding of real sums: see check_sums.
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/util/random.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

#define MLSYS_REQUIRE_CUDA_OR_SKIP()                                 \
  if (std::string why = ::mlsys::test::cuda_missing(); !why.empty()) \
  MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why)

namespace {

struct Dims {
  int64_t n, f;
};
// The trainer's bias gradient, an odd shape, wide, tiny, very tall and narrow,
// and no rows.
const std::vector<Dims> kShapes = {{1000000, 128}, {70001, 13}, {3, 1000}, {1, 1}, {2000003, 1}, {0, 5}};

enum class Data { dyadic, uniform };
const char* name_of(Data d) { return d == Data::dyadic ? "dyadic" : "uniform"; }
// body(shape) for every shape, captured for failure messages.
template <class Body>
void for_shapes(const std::vector<Dims>& shapes, Body&& body) {
  for (const Dims& s : shapes) {
    CAPTURE(s.n);
    CAPTURE(s.f);
    body(s);
  }
}
// body(shape, kind) for every shape and both kinds of data, each captured for
// failure messages.
template <class Body>
void for_shapes_and_kinds(const std::vector<Dims>& shapes, Body&& body) {
  for (const Dims& s : shapes)
    for (Data kind : {Data::dyadic, Data::uniform}) {
      CAPTURE(s.n);
      CAPTURE(s.f);
      CAPTURE(name_of(kind));
      body(s, kind);
    }
}

// Multiples of 1/4 in [-1, 1].
Tensor dyadic_tensor(const Shape& s, uint64_t seed) {
  Tensor t = Tensor::empty(s, DType::f32);
  Rng rng(seed);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data<float>()[i] = 0.25f * static_cast<float>(static_cast<int>(rng.next() % 9) - 4);
  return t;
}
Tensor data_tensor(Data d, const Shape& s, uint64_t seed) {
  return d == Data::dyadic ? dyadic_tensor(s, seed) : rand_tensor(s, seed);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Float sums of n terms, in the host's order and the GPU's, differ by their
// rounding: each addition errs by at most 2^-24 of the partial sum, and these
// errors add up like a random walk, to about 2^-24 * sqrt(n) * |partial| (about
// 0.03 for 1M uniform terms in [-1, 1], whose partial sums stay near sqrt(n /
// 3) = 577). The bound 1e-4 * |want| + 1e-6 * sum |terms| (0.5 there) leaves a
// margin of more than 10 and still catches a lost chunk of rows (the dyadic
// cases catch a single element).
void check_sums(const std::vector<float>& got, const std::vector<float>& want, const std::vector<double>& abs_sum,
                double rel = 1e-4, double abs = 1e-6) {
  REQUIRE(got.size() == want.size());
  for (size_t j = 0; j < got.size(); ++j) {
    const double tol = rel * std::fabs(want[j]) + abs * abs_sum[j];
    if (!(std::fabs(static_cast<double>(got[j]) - want[j]) <= tol)) {
      INFO("column " << j << ": got " << got[j] << ", host " << want[j] << ", tolerance " << tol);
      CHECK(std::fabs(static_cast<double>(got[j]) - want[j]) <= tol);
      return;
    }
  }
}

// sum over rows of |x[r, j]| per column j.
std::vector<double> column_abs_sums(const Tensor& x) {
  const int64_t n = x.rows(), f = x.row_numel();
  std::vector<double> s(static_cast<size_t>(f), 0.0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < f; ++j) s[static_cast<size_t>(j)] += std::fabs(x.data<float>()[r * f + j]);
  return s;
}

// Labels in [-1, c) (-1 ignored) and a mask keeping about 4 rows of 5.
template <class L>
Tensor random_labels(int64_t n, int64_t c, uint64_t seed) {
  std::vector<L> l(static_cast<size_t>(n));
  Rng rng(seed);
  for (auto& y : l) y = static_cast<L>(static_cast<int64_t>(rng.below(static_cast<uint64_t>(c + 1))) - 1);
  return Tensor::from_vector(l);
}
Tensor random_mask(int64_t n, uint64_t seed) {
  std::vector<uint8_t> m(static_cast<size_t>(n));
  Rng rng(seed);
  for (auto& v : m) v = rng.below(5) != 0;
  return Tensor::from_vector(m);
}

}  // namespace

TEST_CASE("col_sum on cuda matches the host and repeats bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  std::vector<Dims> shapes = kShapes;
  shapes.push_back({2, (int64_t{1} << 25) + 33});  // more column tiles than one grid holds
  for_shapes_and_kinds(shapes, [&](const Dims& s, Data kind) {
    const Tensor x = data_tensor(kind, {s.n, s.f}, 11);
    const Tensor prior = dyadic_tensor({s.f}, 12);  // beta * prior is exact for beta = 0.5
    const Tensor xd = x.to(ctx);
    const std::vector<double> abs_sum = column_abs_sums(x);
    for (float beta : {0.f, 0.5f}) {
      CAPTURE(beta);
      Tensor want = Tensor::from_vector(host(prior));
      kernels::col_sum(cpu, x, want, beta);
      Tensor out1 = prior.to(ctx), out2 = prior.to(ctx);
      kernels::col_sum(ctx, xd, out1, beta);
      kernels::col_sum(ctx, xd, out2, beta);
      const std::vector<float> g1 = host(out1);
      CHECK(same_bits(g1, host(out2)));
      if (kind == Data::dyadic)
        CHECK(same_bits(g1, host(want)));
      else
        check_sums(g1, host(want), abs_sum);
    }
    if (s.n == 1000000 && kind == Data::uniform) {
      // For the record of the GPU session (#27): the trainer's bias gradient
      // took 97 ms per call.
      Tensor out = Tensor::empty({s.f}, DType::f32, ctx);
      kernels::col_sum(ctx, xd, out);
      ctx.synchronize();
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 10; ++i) kernels::col_sum(ctx, xd, out);
      ctx.synchronize();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 10;
      MESSAGE("col_sum 1M x 128 on cuda: " << ms << " ms per call");
    }
  });
}

TEST_CASE("sum_all and sum_squares on cuda match the host and repeat bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  for_shapes_and_kinds(kShapes, [&](const Dims& s, Data kind) {
    const Tensor x = data_tensor(kind, {s.n, s.f}, 21);
    const Tensor xd = x.to(ctx);
    double abs_sum = 0, sq_sum = 0;
    for (float v : host(x)) abs_sum += std::fabs(v), sq_sum += static_cast<double>(v) * v;
    const double s1 = kernels::sum_all(ctx, xd), q1 = kernels::sum_squares(ctx, xd);
    CHECK(same_bits(s1, kernels::sum_all(ctx, xd)));
    CHECK(same_bits(q1, kernels::sum_squares(ctx, xd)));
    const double s_host = kernels::sum_all(cpu, x), q_host = kernels::sum_squares(cpu, x);
    if (kind == Data::dyadic) {
      CHECK(same_bits(s1, s_host));
      CHECK(same_bits(q1, q_host));
    } else {
      // f64 sums of float terms: their orders differ by about 2^-53 * sqrt(n) *
      // sum |terms|.
      CHECK(std::fabs(s1 - s_host) <= 1e-12 * abs_sum);
      CHECK(std::fabs(q1 - q_host) <= 1e-12 * sq_sum);
    }
  });
}

TEST_CASE("count_correct on cuda counts as the host") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  for_shapes(kShapes, [&](const Dims& s) {
    const Tensor logits = rand_tensor({s.n, s.f}, 31), ld = logits.to(ctx);
    const Tensor mask = random_mask(s.n, 32), md = mask.to(ctx);
    for (bool wide : {false, true}) {
      CAPTURE(wide);
      const Tensor labels = wide ? random_labels<int64_t>(s.n, s.f, 33) : random_labels<int32_t>(s.n, s.f, 33);
      const Tensor yd = labels.to(ctx);
      for (bool masked : {false, true}) {
        CAPTURE(masked);
        const int64_t want = kernels::count_correct(cpu, logits, labels, masked ? mask : Tensor());
        CHECK(kernels::count_correct(ctx, ld, yd, masked ? md : Tensor()) == want);
        if (s.n >= 70001) CHECK(want > 0);  // the case counts something
      }
    }
  });
}

TEST_CASE("nll_loss and cross_entropy on cuda match the host and repeat bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  for_shapes(kShapes, [&](const Dims& s) {
    const Tensor x = rand_tensor({s.n, s.f}, 41, -4.f, 0.f), xd = x.to(ctx);
    const Tensor labels = random_labels<int64_t>(s.n, s.f, 42), yd = labels.to(ctx);
    const Tensor mask = random_mask(s.n, 43), md = mask.to(ctx);
    for (bool logits_mode : {false, true}) {
      CAPTURE(logits_mode);
      auto loss = [&](DeviceContext& c, const Tensor& xx, const Tensor& yy, const Tensor& mm, const Tensor& g) {
        return logits_mode ? kernels::cross_entropy(c, xx, yy, mm, g) : kernels::nll_loss(c, xx, yy, mm, g);
      };
      Tensor gh = Tensor::empty({s.n, s.f}), g1 = Tensor::empty({s.n, s.f}, DType::f32, ctx),
             g2 = Tensor::empty({s.n, s.f}, DType::f32, ctx);
      const float want = loss(cpu, x, labels, mask, gh);
      const float l1 = loss(ctx, xd, yd, md, g1), l2 = loss(ctx, xd, yd, md, g2);
      CHECK(same_bits(l1, l2));
      CHECK(same_bits(host(g1), host(g2)));
      // Per row, the GPU's expf / logf differ from the host's by an ulp or two;
      // the mean over rows in f64 keeps that.
      CHECK(std::fabs(l1 - want) <= 1e-5 * std::fabs(want) + 1e-6);
      if (logits_mode)
        check_close(host(g1), host(gh), 1e-12f, 1e-4f);
      else
        CHECK(same_bits(host(g1),
                        host(gh)));  // -1 / count on counted labels, 0 elsewhere
    }
  });
  // A label >= the class count throws, masked or not among many rows.
  const int64_t n = 70001, c = 13;
  std::vector<int32_t> l(static_cast<size_t>(n), 1);
  l[static_cast<size_t>(n - 2)] = c;
  const Tensor xd = rand_tensor({n, c}, 44).to(ctx), yd = Tensor::from_vector(l).to(ctx);
  CHECK_THROWS_WITH_AS(kernels::cross_entropy(ctx, xd, yd, Tensor()), doctest::Contains("classes"), Error);
  CHECK_THROWS_WITH_AS(kernels::nll_loss(ctx, xd, yd, Tensor()), doctest::Contains("classes"), Error);
}

TEST_CASE("cosine_similarity_loss on cuda matches the host and repeats bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  for_shapes(kShapes, [&](const Dims& s) {
    const Tensor a = rand_tensor({s.n, s.f}, 51), b = rand_tensor({s.n, s.f}, 52), w = rand_tensor({s.n}, 53, 0.f, 2.f);
    const Tensor ad = a.to(ctx), bd = b.to(ctx), wd = w.to(ctx);
    for (bool weighted : {false, true}) {
      CAPTURE(weighted);
      const float want = kernels::cosine_similarity_loss(cpu, a, b, Tensor(), Tensor(), 1e-8f, weighted ? w : Tensor());
      const float l1 =
          kernels::cosine_similarity_loss(ctx, ad, bd, Tensor(), Tensor(), 1e-8f, weighted ? wd : Tensor());
      const float l2 =
          kernels::cosine_similarity_loss(ctx, ad, bd, Tensor(), Tensor(), 1e-8f, weighted ? wd : Tensor());
      CHECK(same_bits(l1, l2));
      // Rows are computed in f64 on both (the GPU may fuse multiply-adds): the
      // float results agree to an ulp or so.
      CHECK(std::fabs(l1 - want) <= 1e-6 * std::fabs(want) + 1e-7);
    }
  });
}

TEST_CASE("layer_norm_backward's gamma and beta gradients on cuda match the host and repeat bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  for_shapes_and_kinds(kShapes, [&](const Dims& s, Data kind) {
    // Any mean and rstd will do for the parameter gradients; dyadic ones (rstd
    // a power of two) keep every product exact.
    const Tensor x = data_tensor(kind, {s.n, s.f}, 61), gy = data_tensor(kind, {s.n, s.f}, 62);
    const Tensor mean = data_tensor(kind, {s.n}, 63);
    Tensor rstd = Tensor::empty({s.n});
    Rng rng(64);
    for (int64_t r = 0; r < s.n; ++r)
      rstd.data<float>()[r] =
          kind == Data::dyadic ? std::ldexp(1.f, static_cast<int>(rng.below(3)) - 1) : 0.5f + 1.5f * rng.uniformf();
    const Tensor xd = x.to(ctx), gyd = gy.to(ctx), md = mean.to(ctx), rd = rstd.to(ctx);
    const Tensor gg0 = dyadic_tensor({s.f}, 65), gb0 = dyadic_tensor({s.f}, 66);
    // Scale of each column's sums, for the tolerance of the uniform case.
    std::vector<double> abs_gg(static_cast<size_t>(s.f), 0.0), abs_gb(static_cast<size_t>(s.f), 0.0);
    for (int64_t r = 0; r < s.n; ++r)
      for (int64_t j = 0; j < s.f; ++j) {
        const size_t k = static_cast<size_t>(r * s.f + j);
        const double g = gy.data<float>()[k];
        abs_gg[static_cast<size_t>(j)] +=
            std::fabs(g * (x.data<float>()[k] - mean.data<float>()[r]) * rstd.data<float>()[r]);
        abs_gb[static_cast<size_t>(j)] += std::fabs(g);
      }
    for (bool both : {true, false}) {
      CAPTURE(both);
      Tensor ggh = Tensor::from_vector(host(gg0)), gbh = Tensor::from_vector(host(gb0));
      kernels::layer_norm_backward(cpu, x, Tensor(), mean, rstd, gy, Tensor(), both ? ggh : Tensor(), gbh);
      std::vector<float> gg[2], gb[2];
      for (int run = 0; run < 2; ++run) {
        Tensor ggd = gg0.to(ctx), gbd = gb0.to(ctx);
        kernels::layer_norm_backward(ctx, xd, Tensor(), md, rd, gyd, Tensor(), both ? ggd : Tensor(), gbd);
        gg[run] = host(ggd), gb[run] = host(gbd);
      }
      CHECK(same_bits(gg[0], gg[1]));
      CHECK(same_bits(gb[0], gb[1]));
      if (kind == Data::dyadic) {
        if (both) CHECK(same_bits(gg[0], host(ggh)));
        CHECK(same_bits(gb[0], host(gbh)));
      } else {
        // f64 sums of the same terms: they differ by far less than the float
        // result's last bit.
        if (both) check_sums(gg[0], host(ggh), abs_gg, 1e-6, 1e-6);
        check_sums(gb[0], host(gbh), abs_gb, 1e-6, 1e-6);
      }
    }
  });
}

TEST_CASE("conv2d_backward's bias gradient on cuda matches the host and repeats bit for bit") {
  MLSYS_REQUIRE_CUDA_OR_SKIP();
  DeviceContext ctx(Device::cuda(0));
  DeviceContext& cpu = cpu_context();
  // grad_out [N, O, H, W] of a 1x1 convolution: 1M pixels x 128 channels, odd,
  // few large planes, many one-pixel planes, no images.
  const std::vector<Shape> shapes = {
      {64, 128, 128, 128}, {7, 13, 97, 103}, {2, 3, 700, 700}, {5000, 20, 1, 1}, {0, 3, 4, 4}};
  for (const Shape& os : shapes)
    for (Data kind : {Data::dyadic, Data::uniform}) {
      CAPTURE(os.str());
      CAPTURE(name_of(kind));
      const Tensor x = Tensor::zeros({os[0], 1, os[2], os[3]}), w = Tensor::zeros({os[1], 1, 1, 1});
      const Tensor go = data_tensor(kind, os, 71), gb0 = dyadic_tensor({os[1]}, 72);
      Tensor gbh = Tensor::from_vector(host(gb0));
      kernels::conv2d_backward(cpu, x, w, go, Tensor(), Tensor(), gbh, kernels::Conv2dParams{});
      const Tensor xd = x.to(ctx), wd = w.to(ctx), god = go.to(ctx);
      std::vector<float> gb[2];
      for (int run = 0; run < 2; ++run) {
        Tensor gbd = gb0.to(ctx);
        kernels::conv2d_backward(ctx, xd, wd, god, Tensor(), Tensor(), gbd, kernels::Conv2dParams{});
        gb[run] = host(gbd);
      }
      CHECK(same_bits(gb[0], gb[1]));
      if (kind == Data::dyadic) {
        CHECK(same_bits(gb[0], host(gbh)));
      } else {
        // Per channel a float sum of N * H * W terms, as col_sum (see
        // check_sums).
        std::vector<double> abs_sum(static_cast<size_t>(os[1]), 0.0);
        const int64_t p = os[2] * os[3];
        for (int64_t i = 0; i < go.numel(); ++i)
          abs_sum[static_cast<size_t>((i / p) % os[1])] += std::fabs(go.data<float>()[i]);
        check_sums(gb[0], host(gbh), abs_sum);
      }
    }
}
