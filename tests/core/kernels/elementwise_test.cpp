#include <algorithm>
#include <limits>

#include "core/kernels/kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/util/random.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

BACKEND_TEST("element-wise ops and their backwards match the formulas") {
  for (int64_t n : {0, 1, 7, 1000, 70001}) {
    CAPTURE(n);
    Tensor x = rand_tensor({n}, 1, -2.f, 2.f), y = rand_tensor({n}, 2), g = rand_tensor({n}, 3);
    std::vector<float> xh = host(x), yh = host(y), gh = host(g), want(static_cast<size_t>(n));
    Tensor xd = x.to(ctx), yd = y.to(ctx), gd = g.to(ctx), out = Tensor::empty({n}, DType::f32, ctx);
    auto run = [&](auto&& kernel, auto&& ref) {
      for (size_t i = 0; i < want.size(); ++i) want[i] = ref(xh[i], yh[i], gh[i]);
      kernel();
      check_close(host(out), want, 1e-5f, 1e-5f);
    };
    run([&] { kernels::add(ctx, xd, yd, out); }, [](float a, float b, float) { return a + b; });
    run([&] { kernels::mul(ctx, xd, yd, out); }, [](float a, float b, float) { return a * b; });
    run([&] { kernels::scale(ctx, xd, -1.5f, out); }, [](float a, float, float) { return -1.5f * a; });
    run([&] { kernels::relu(ctx, xd, out); }, [](float a, float, float) { return std::max(a, 0.f); });
    run([&] { kernels::relu_backward(ctx, xd, gd, out); }, [](float a, float, float c) { return a > 0 ? c : 0.f; });
    run([&] { kernels::leaky_relu(ctx, xd, out, 0.2f); }, [](float a, float, float) { return a > 0 ? a : 0.2f * a; });
    run([&] { kernels::leaky_relu_backward(ctx, xd, gd, out, 0.2f); },
        [](float a, float, float c) { return a > 0 ? c : 0.2f * c; });
    run([&] { kernels::elu(ctx, xd, out, 0.7f); }, [](float a, float, float) { return a > 0 ? a : 0.7f * std::expm1(a); });
    run([&] { kernels::elu_backward(ctx, xd, gd, out, 0.7f); },
        [](float a, float, float c) { return a > 0 ? c : c * 0.7f * std::exp(a); });
    run([&] { kernels::fill(ctx, out, 3.f); }, [](float, float, float) { return 3.f; });
    run([&] { out.copy_from(yd); kernels::axpy(ctx, 2.f, xd, out); }, [](float a, float b, float) { return b + 2 * a; });
  }
}

BACKEND_TEST("dropout is seeded, keeps about 1-p, and its backward uses the mask") {
  const int64_t n = 100000;
  const float p = 0.3f;
  Tensor x = Tensor::full({n}, 1.f).to(ctx);
  Tensor out = Tensor::empty({n}, DType::f32, ctx), mask = Tensor::empty({n}, DType::u8, ctx);
  kernels::dropout(ctx, x, out, mask, p, 42);
  std::vector<uint8_t> m = mask.to_vector<uint8_t>();
  std::vector<float> o = host(out);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    kept += m[static_cast<size_t>(i)];
    // the same uniform on every backend
    CHECK_EQ(m[static_cast<size_t>(i)] != 0, kernels::dropout_uniform(42, static_cast<uint64_t>(i)) >= p);
    if (i > 50) break;
  }
  kept = std::count(m.begin(), m.end(), uint8_t{1});
  CHECK(std::abs(static_cast<double>(kept) / n - 0.7) < 0.01);
  for (size_t i = 0; i < 100; ++i) CHECK(o[i] == doctest::Approx(m[i] ? 1.f / 0.7f : 0.f));
  Tensor out2 = Tensor::empty({n}, DType::f32, ctx), mask2 = Tensor::empty({n}, DType::u8, ctx);
  kernels::dropout(ctx, x, out2, mask2, p, 42);
  CHECK(mask2.to_vector<uint8_t>() == m);
  kernels::dropout(ctx, x, out2, mask2, p, 43);
  CHECK(mask2.to_vector<uint8_t>() != m);
  Tensor g = rand_tensor({n}, 9).to(ctx), gi = Tensor::empty({n}, DType::f32, ctx);
  kernels::dropout_backward(ctx, g, mask, p, gi);
  std::vector<float> gh = host(g), gih = host(gi);
  for (size_t i = 0; i < 1000; ++i) CHECK(gih[i] == doctest::Approx(m[i] ? gh[i] / 0.7f : 0.f));
}

// The keyed dropout's definition, written out from the shared homes (mlsys::derive_seed and the
// quantizer's counter hash), so every backend is held to the same bits as graph dropout's.
namespace {
bool keyed_ref(uint64_t seed, int32_t id, int64_t c, float p) {
  const auto key = static_cast<uint32_t>(derive_seed(seed, static_cast<uint64_t>(id)) >> 32);
  return (quant::rng_bits(key, static_cast<uint32_t>(c)) >> 8) >= static_cast<uint32_t>(static_cast<double>(p) * 16777216.0);
}
bool keyed_csr_ref(uint64_t seed, int32_t id, int64_t c, float p) {
  const uint64_t key = derive_seed(seed, static_cast<uint64_t>(id), static_cast<uint64_t>(c));
  return static_cast<double>(key >> 11) * 0x1.0p-53 >= p;
}
}  // namespace

BACKEND_TEST("keyed dropout: the mask follows (seed, row id, column), the same bits as the reference on every backend") {
  const float p = 0.4f;
  const uint64_t seed = 77;
  for (auto [n, f] : {std::pair<int64_t, int64_t>{0, 5}, {1, 1}, {37, 129}, {300, 64}}) {
    CAPTURE(n); CAPTURE(f);
    Tensor x = rand_tensor({n, f}, 11), g = rand_tensor({n, f}, 12);
    std::vector<float> xh = host(x), gh = host(g);
    for (int64_t i = 0; i < n * f; i += 7) xh[static_cast<size_t>(i)] = 0.f;  // zero inputs count as dropped
    x = Tensor::from_vector(xh, {n, f});
    std::vector<int32_t> ids(static_cast<size_t>(n));
    for (int64_t r = 0; r < n; ++r) ids[static_cast<size_t>(r)] = static_cast<int32_t>((r * 7919 + 13) % 100003);
    Tensor idt = Tensor::from_vector(ids).to(ctx), xd = x.to(ctx), gd = g.to(ctx);
    Tensor out = Tensor::empty({n, f}, DType::f32, ctx);
    kernels::dropout_keyed(ctx, xd, xd, idt, p, seed, out);
    kernels::dropout_keyed(ctx, xd, gd, idt, p, seed, gd);  // in place on the gradient
    std::vector<float> o = host(out), go = host(gd);
    const float scale = 1.0f / (1.0f - p);
    int64_t kept = 0, nonzero = 0;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < f; ++c) {
        const size_t i = static_cast<size_t>(r * f + c);
        const bool keep = xh[i] != 0.f && keyed_ref(seed, ids[static_cast<size_t>(r)], c, p);
        REQUIRE(o[i] == (keep ? xh[i] * scale : 0.f));  // bit-exact, not approximate
        REQUIRE(go[i] == (keep ? gh[i] * scale : 0.f));
        kept += keep;
        nonzero += xh[i] != 0.f;
      }
    if (nonzero > 5000) CHECK(std::abs(static_cast<double>(kept) / static_cast<double>(nonzero) - 0.6) < 0.03);
    // A row's mask moves with its id, not its position: the rows reversed give the rows' masks reversed.
    if (n > 1) {
      std::vector<float> xr(xh.size());
      std::vector<int32_t> idr(ids.rbegin(), ids.rend());
      for (int64_t r = 0; r < n; ++r)
        std::copy_n(xh.begin() + (n - 1 - r) * f, f, xr.begin() + r * f);
      Tensor xrd = Tensor::from_vector(xr, {n, f}).to(ctx), outr = Tensor::empty({n, f}, DType::f32, ctx);
      kernels::dropout_keyed(ctx, xrd, xrd, Tensor::from_vector(idr).to(ctx), p, seed, outr);
      std::vector<float> orv = host(outr);
      for (int64_t r = 0; r < n; ++r)
        CHECK(std::equal(orv.begin() + r * f, orv.begin() + (r + 1) * f, o.begin() + (n - 1 - r) * f));
    }
  }
  // The CSR form drops nonzeros by (seed, row id, column).
  std::vector<int64_t> rp{0, 2, 2, 5};
  std::vector<int32_t> col{0, 3, 1, 2, 4};
  std::vector<float> val{1.f, -2.f, 3.f, 4.f, 5.f};
  Csr a = Csr::from_arrays(3, 5, rp, col, val).to(ctx);
  const std::vector<int32_t> ids{5, 9, 2};
  for (uint64_t s = 0; s < 20; ++s) {
    Tensor vo = Tensor::empty({5}, DType::f32, ctx);
    kernels::dropout_keyed_csr(ctx, a, Tensor::from_vector(ids).to(ctx), p, s, vo);
    std::vector<float> v = host(vo);
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t e = rp[static_cast<size_t>(r)]; e < rp[static_cast<size_t>(r) + 1]; ++e) {
        const size_t i = static_cast<size_t>(e);
        REQUIRE(v[i] == (keyed_csr_ref(s, ids[static_cast<size_t>(r)], col[i], p) ? val[i] * (1.0f / (1.0f - p)) : 0.f));
      }
  }
  // Long rows (the vectorized body of the host kernel) and several rates, against the definition.
  for (float q : {0.0f, 0.1f, 0.5f, 0.9f}) {
    CAPTURE(q);
    const Csr big = Csr::random(40, 700, 6000, 3, false, true);
    std::vector<int32_t> big_ids(40);
    for (size_t r = 0; r < big_ids.size(); ++r) big_ids[r] = static_cast<int32_t>(1000 + 7 * r);
    Tensor vo = Tensor::empty({big.nnz()}, DType::f32, ctx);
    kernels::dropout_keyed_csr(ctx, big.to(ctx), Tensor::from_vector(big_ids).to(ctx), q, 11, vo);
    const std::vector<float> v = host(vo), bv = big.values.to_vector<float>();
    const std::vector<int64_t> brp = big.row_ptr.to_vector<int64_t>();
    const std::vector<int32_t> bcol = big.col.to_vector<int32_t>();
    int64_t kept = 0;
    for (int64_t r = 0; r < big.rows; ++r)
      for (int64_t e = brp[static_cast<size_t>(r)]; e < brp[static_cast<size_t>(r) + 1]; ++e) {
        const size_t i = static_cast<size_t>(e);
        const bool keep = keyed_csr_ref(11, big_ids[static_cast<size_t>(r)], bcol[i], q);
        REQUIRE(v[i] == (keep ? bv[i] * (1.0f / (1.0f - q)) : 0.f));
        kept += keep;
      }
    CHECK(std::abs(static_cast<double>(kept) / static_cast<double>(big.nnz()) - (1.0 - q)) < 0.03);
  }
  Tensor bad = Tensor::empty({3}, DType::f32, ctx);
  CHECK_THROWS(kernels::dropout_keyed_csr(ctx, a, Tensor::from_vector(ids).to(ctx), 1.0f, 1, Tensor::empty({5}, DType::f32, ctx)));
  CHECK_THROWS(kernels::dropout_keyed_csr(ctx, a, Tensor::from_vector(ids).to(ctx), p, 1, bad));
}

BACKEND_TEST("row and column reductions, row vectors and accuracy counts") {
  for (auto [n, f] : {std::pair<int64_t, int64_t>{5, 3}, {1, 1}, {0, 4}, {300, 129}, {4, 0}}) {
    CAPTURE(n); CAPTURE(f);
    Tensor x = rand_tensor({n, f}, 5);
    std::vector<float> xh = host(x);
    std::vector<float> rs(static_cast<size_t>(n), 0.f), rm(static_cast<size_t>(n), -std::numeric_limits<float>::infinity()),
        cs(static_cast<size_t>(f), 0.f);
    double all = 0, sq = 0;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t j = 0; j < f; ++j) {
        float v = xh[static_cast<size_t>(r * f + j)];
        rs[static_cast<size_t>(r)] += v, cs[static_cast<size_t>(j)] += v, all += v, sq += v * v;
        rm[static_cast<size_t>(r)] = std::max(rm[static_cast<size_t>(r)], v);
      }
    Tensor xd = x.to(ctx);
    Tensor o = Tensor::empty({n}, DType::f32, ctx), c = Tensor::full({f}, 1.f).to(ctx);
    kernels::row_sum(ctx, xd, o);
    check_close(host(o), rs);
    kernels::row_max(ctx, xd, o);
    if (f > 0) check_close(host(o), rm);
    kernels::col_sum(ctx, xd, c, 0.5f);
    for (auto& v : cs) v += 0.5f;
    check_close(host(c), cs, 1e-4f, 1e-4f);
    CHECK(kernels::sum_all(ctx, xd) == doctest::Approx(all).epsilon(1e-5));
    CHECK(kernels::sum_squares(ctx, xd) == doctest::Approx(sq).epsilon(1e-5));
    // add_row_vector and scale_rows
    Tensor b = rand_tensor({f}, 6), s = rand_tensor({n}, 7);
    std::vector<float> bh = host(b), sh = host(s), want(xh.size()), want2(xh.size());
    for (int64_t r = 0; r < n; ++r)
      for (int64_t j = 0; j < f; ++j) {
        size_t k = static_cast<size_t>(r * f + j);
        want[k] = xh[k] + bh[static_cast<size_t>(j)];
        want2[k] = xh[k] * sh[static_cast<size_t>(r)];
      }
    Tensor out = Tensor::empty({n, f}, DType::f32, ctx);
    kernels::add_row_vector(ctx, xd, b.to(ctx), out);
    check_close(host(out), want);
    kernels::scale_rows(ctx, xd, s.to(ctx), out);
    check_close(host(out), want2);
  }
  // count_correct: argmax per row vs label; masked and negative labels are skipped.
  Tensor logits = Tensor::from_vector(std::vector<float>{0, 1, 0, 5, 0, 0, 0, 0, 9, 1, 2, 0}, {4, 3});
  Tensor labels = Tensor::from_vector(std::vector<int64_t>{1, 0, 2, -1});
  Tensor mask = Tensor::from_vector(std::vector<uint8_t>{1, 1, 0, 1});
  CHECK(kernels::count_correct(ctx, logits.to(ctx), labels.to(ctx), Tensor()) == 3);
  CHECK(kernels::count_correct(ctx, logits.to(ctx), labels.to(ctx), mask.to(ctx)) == 2);
}
