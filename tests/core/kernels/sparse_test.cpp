#include <algorithm>
#include <limits>

#include "core/kernels/kernels.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;
using namespace mlsys::test;

namespace {
struct HostCsr {
  std::vector<int64_t> rp;
  std::vector<int64_t> col;
  std::vector<float> val;  // empty = ones
};
HostCsr host_csr(const Csr& a) {
  HostCsr h;
  h.rp = a.row_ptr.to_vector<int64_t>();
  if (a.col.dtype() == DType::i64) h.col = a.col.to_vector<int64_t>();
  else
    for (int32_t c : a.col.to_vector<int32_t>()) h.col.push_back(c);
  if (a.has_values()) h.val = a.values.to_vector<float>();
  return h;
}

// out = op(A) X + beta out with weights ev [nnz, H] (or A.values / 1), F = H * D.
std::vector<float> naive_spmm(const Csr& a, bool transposed, const std::vector<float>& x, int64_t f,
                              const std::vector<float>& ev, int64_t heads, std::vector<float> out, float beta) {
  HostCsr h = host_csr(a);
  for (auto& o : out) o = beta == 0.f ? 0.f : beta * o;
  const int64_t d = heads ? f / heads : f;
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) {
      const int64_t c = h.col[e];
      const int64_t dst = transposed ? c : r, srcrow = transposed ? r : c;
      for (int64_t j = 0; j < f; ++j) {
        float w = heads ? ev[e * heads + j / d] : (h.val.empty() ? 1.f : h.val[e]);
        out[dst * f + j] += w * x[srcrow * f + j];
      }
    }
  return out;
}
}  // namespace

BACKEND_TEST("spmm and spmm_t match the reference on random matrices") {
  struct Case {
    int64_t rows, cols, nnz, f, heads;
    bool values, i64, rmat;
  };
  const Case cases[] = {{1, 1, 1, 1, 0, false, false, false},  {17, 13, 60, 7, 0, true, false, false},
                        {64, 64, 500, 128, 0, false, false, true}, {50, 40, 300, 200, 0, true, true, false},
                        {30, 30, 0, 5, 0, false, false, false},    {0, 10, 0, 3, 0, false, false, false},
                        {40, 33, 200, 12, 3, false, false, false}, {40, 40, 300, 16, 1, true, false, true},
                        {25, 25, 100, 0, 0, false, false, false},  {90, 70, 2000, 37, 0, true, false, true}};
  uint64_t seed = 10;
  for (const Case& cs : cases) {
    CAPTURE(cs.rows); CAPTURE(cs.cols); CAPTURE(cs.nnz); CAPTURE(cs.f); CAPTURE(cs.heads);
    Csr a = Csr::random(cs.rows, cs.cols, cs.nnz, seed++, cs.rmat, cs.values);
    if (cs.i64) a.col = a.col.to_dtype(DType::i64);
    Tensor ev = cs.heads ? rand_tensor(cs.heads == 1 ? Shape{cs.nnz} : Shape{cs.nnz, cs.heads}, seed++) : Tensor();
    const std::vector<float> evh = cs.heads ? host(ev) : std::vector<float>{};
    for (float beta : {0.f, 0.5f}) {
      // forward
      Tensor x = rand_tensor({cs.cols, cs.f}, seed++);
      Tensor out = rand_tensor({cs.rows, cs.f}, seed++);
      auto want = naive_spmm(a, false, host(x), cs.f, evh, cs.heads, host(out), beta);
      Csr ad = a.to(ctx);
      Tensor od = out.to(ctx);
      kernels::spmm(ctx, ad, x.to(ctx), od, ev.to(ctx), beta);
      check_close(host(od), want);
      // transpose: on-the-fly path, then with a cached transpose
      Tensor xt = rand_tensor({cs.rows, cs.f}, seed++);
      Tensor outt = rand_tensor({cs.cols, cs.f}, seed++);
      auto want_t = naive_spmm(a, true, host(xt), cs.f, evh, cs.heads, host(outt), beta);
      Tensor o1 = outt.clone();
      if (ctx.device().is_cpu()) {
        kernels::spmm_t(ctx, a, xt, o1, ev, beta);
        check_close(host(o1), want_t);
      }
      Csr at = a.with_transpose().to(ctx);
      Tensor o2 = outt.to(ctx);
      kernels::spmm_t(ctx, at, xt.to(ctx), o2, ev.to(ctx), beta);
      check_close(host(o2), want_t);
      // The host's scatter (no transposed copy) and the cached transpose add the same products in
      // the same order: training results do not depend on which one ran.
      if (ctx.device().is_cpu()) CHECK(host(o1) == host(o2));
      // A zeroed output (a gradient at the start of a step) is accumulated in place: same bits.
      if (ctx.device().is_cpu()) {
        Tensor z1 = Tensor::zeros(outt.shape()), z2 = Tensor::zeros(outt.shape());
        kernels::spmm_t(ctx, a, xt, z1, ev, 1.0f);
        kernels::spmm_t(ctx, at, xt, z2, ev, 1.0f);
        CHECK(host(z1) == host(z2));
      }
    }
  }
}

// What the cuda backend's cuSPARSE path keeps per matrix (Csr::backend_state) must not leak from one
// product into the next: per-edge values of each call, a copy with other values, a matrix without
// values; beta = 0 never reads `out`; the same product twice gives the same bits.
BACKEND_TEST("spmm: beta 0 ignores out's old contents, repeats bit for bit, and each call's values count") {
  Csr a = Csr::random(300, 280, 3000, 5, true, true);
  Csr ad = a.to(ctx);
  const int64_t f = 24;
  Tensor x = rand_tensor({a.cols, f}, 1);
  Tensor xd = x.to(ctx);
  const std::vector<float> none;
  auto fresh_nan = [&] { return Tensor::full({a.rows, f}, std::numeric_limits<float>::quiet_NaN()).to(ctx); };
  Tensor o1 = fresh_nan(), o2 = fresh_nan();
  kernels::spmm(ctx, ad, xd, o1);
  kernels::spmm(ctx, ad, xd, o2);
  const auto want = naive_spmm(a, false, host(x), f, none, 0, std::vector<float>(size_t(a.rows * f)), 0.f);
  check_close(host(o1), want);
  CHECK(host(o1) == host(o2));
  for (uint64_t seed : {7u, 8u}) {  // two calls with different per-edge values on one matrix
    Tensor ev = rand_tensor({a.nnz()}, seed);
    Tensor o = fresh_nan();
    kernels::spmm(ctx, ad, xd, o, ev.to(ctx));
    check_close(host(o), naive_spmm(a, false, host(x), f, host(ev), 1, std::vector<float>(size_t(a.rows * f)), 0.f));
  }
  Csr other = ad;  // shares the arrays (and what a backend derived from them), other values
  Tensor vals = rand_tensor({a.nnz()}, 9, 2.f, 3.f);
  other.values = vals.to(ctx);
  Csr other_host = a;
  other_host.values = vals;
  Tensor o3 = fresh_nan();
  kernels::spmm(ctx, other, xd, o3);
  check_close(host(o3), naive_spmm(other_host, false, host(x), f, none, 0, std::vector<float>(size_t(a.rows * f)), 0.f));
  Csr ones = Csr::random(300, 280, 3000, 6, true, false);  // no values: every edge counts 1
  Tensor o4 = fresh_nan();
  kernels::spmm(ctx, ones.to(ctx), xd, o4);
  check_close(host(o4), naive_spmm(ones, false, host(x), f, none, 0, std::vector<float>(size_t(a.rows * f)), 0.f));
  kernels::spmm(ctx, ad, xd, o1);  // the first matrix again, after the others
  CHECK(host(o1) == host(o2));
}

BACKEND_TEST("spmm_t on a symmetric matrix uses it directly") {
  // Symmetrize a random matrix: A + A^T (values summed per entry through duplicates).
  Csr r = Csr::random(50, 50, 300, 3, true, true);
  std::vector<int64_t> src, dst;
  std::vector<float> val;
  HostCsr h = host_csr(r);
  for (int64_t i = 0; i < 50; ++i)
    for (int64_t e = h.rp[i]; e < h.rp[i + 1]; ++e) {
      src.push_back(i), dst.push_back(h.col[e]), val.push_back(h.val[e]);
      src.push_back(h.col[e]), dst.push_back(i), val.push_back(h.val[e]);
    }
  Csr a = Csr::from_coo(50, 50, src, dst, val);
  a.symmetric = true;
  Tensor x = rand_tensor({50, 9}, 4);
  auto want = naive_spmm(a, true, host(x), 9, {}, 0, std::vector<float>(50 * 9, 0.f), 0.f);
  Tensor out = Tensor::zeros({50, 9}, DType::f32, ctx);
  kernels::spmm_t(ctx, a.to(ctx), x.to(ctx), out);
  check_close(host(out), want);
}

BACKEND_TEST("a transpose kept without edge ids serves spmm_t, per-edge products fall back, with_transpose(true) rebuilds it") {
  Csr r = Csr::random(40, 30, 250, 5, false, true);
  Csr lean = r.with_transpose(false);
  REQUIRE(lean.transposed);
  CHECK(!lean.transposed->edge_id.defined());
  Tensor x = rand_tensor({40, 6}, 7);
  const std::vector<float> ev = rand_tensor({r.nnz()}, 8).to_vector<float>();
  auto want_plain = naive_spmm(r, true, host(x), 6, {}, 0, std::vector<float>(30 * 6, 0.f), 0.f);
  auto want_edges = naive_spmm(r, true, host(x), 6, ev, 1, std::vector<float>(30 * 6, 0.f), 0.f);
  Tensor out = Tensor::zeros({30, 6}, DType::f32, ctx);
  kernels::spmm_t(ctx, lean.to(ctx), x.to(ctx), out);
  check_close(host(out), want_plain);
  kernels::spmm_t(ctx, lean.to(ctx), x.to(ctx), out, Tensor::from_vector(ev).to(ctx));  // per-edge values: no ids to map them
  check_close(host(out), want_edges);
  Tensor gv = Tensor::empty({30, 1}, DType::f32, ctx);
  kernels::edge_add_backward(ctx, lean.to(ctx), Tensor::from_vector(ev, Shape{r.nnz(), 1}).to(ctx), Tensor(), gv);
  auto want_cols = naive_spmm(r, true, std::vector<float>(40, 1.f), 1, ev, 1, std::vector<float>(30, 0.f), 0.f);
  check_close(host(gv), want_cols);
  Csr full = lean.with_transpose(true);
  CHECK(full.transposed->edge_id.defined());
}

BACKEND_TEST("sddmm, edge_add and edge softmax match the reference") {
  for (int64_t heads : {1, 2, 4}) {
    CAPTURE(heads);
    Csr a = Csr::random(37, 29, 400, 7 + static_cast<uint64_t>(heads), true, false);
    HostCsr h = host_csr(a);
    const int64_t nnz = a.nnz(), d = 5, f = heads * d;
    Tensor u = rand_tensor({37, f}, 1), v = rand_tensor({29, f}, 2);
    std::vector<float> uh = host(u), vh = host(v);
    // sddmm
    Tensor out = Tensor::empty({nnz, heads}, DType::f32, ctx);
    Csr ad = a.with_transpose().to(ctx);
    kernels::sddmm(ctx, ad, u.to(ctx), v.to(ctx), out);
    std::vector<float> want(static_cast<size_t>(nnz * heads));
    for (int64_t r = 0; r < 37; ++r)
      for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e)
        for (int64_t k = 0; k < heads; ++k) {
          float s = 0;
          for (int64_t j = k * d; j < (k + 1) * d; ++j) s += uh[r * f + j] * vh[h.col[e] * f + j];
          want[e * heads + k] = s;
        }
    check_close(host(out), want);
    // edge_add and its backward
    Tensor su = rand_tensor({37, heads}, 3), sv = rand_tensor({29, heads}, 4);
    std::vector<float> suh = host(su), svh = host(sv);
    kernels::edge_add(ctx, ad, su.to(ctx), sv.to(ctx), out);
    for (int64_t r = 0; r < 37; ++r)
      for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e)
        for (int64_t k = 0; k < heads; ++k) want[e * heads + k] = suh[r * heads + k] + svh[h.col[e] * heads + k];
    check_close(host(out), want);
    Tensor g = rand_tensor({nnz, heads}, 5);
    std::vector<float> gh = host(g), gu(37 * heads, 0.f), gv(29 * heads, 0.f);
    for (int64_t r = 0; r < 37; ++r)
      for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e)
        for (int64_t k = 0; k < heads; ++k) gu[r * heads + k] += gh[e * heads + k], gv[h.col[e] * heads + k] += gh[e * heads + k];
    Tensor gud = Tensor::empty({37, heads}, DType::f32, ctx), gvd = Tensor::empty({29, heads}, DType::f32, ctx);
    kernels::edge_add_backward(ctx, ad, g.to(ctx), gud, gvd);
    check_close(host(gud), gu);
    check_close(host(gvd), gv);
    // edge softmax: rows sum to one, matches exp / sum, and the backward matches the formula
    Tensor s = rand_tensor({nnz, heads}, 6, -3.f, 3.f);
    std::vector<float> sh = host(s), y(gh.size()), gs(gh.size());
    for (int64_t r = 0; r < 37; ++r)
      for (int64_t k = 0; k < heads; ++k) {
        float m = -std::numeric_limits<float>::infinity(), sum = 0, dot = 0;
        for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) m = std::max(m, sh[e * heads + k]);
        for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) sum += std::exp(sh[e * heads + k] - m);
        for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) y[e * heads + k] = std::exp(sh[e * heads + k] - m) / sum;
        for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) dot += gh[e * heads + k] * y[e * heads + k];
        for (int64_t e = h.rp[r]; e < h.rp[r + 1]; ++e) gs[e * heads + k] = y[e * heads + k] * (gh[e * heads + k] - dot);
      }
    Tensor yd = Tensor::empty({nnz, heads}, DType::f32, ctx), gsd = Tensor::empty({nnz, heads}, DType::f32, ctx);
    kernels::edge_softmax(ctx, ad, s.to(ctx), yd);
    check_close(host(yd), y);
    kernels::edge_softmax_backward(ctx, ad, yd, g.to(ctx), gsd);
    check_close(host(gsd), gs);
  }
}

BACKEND_TEST("gather_rows and scatter_add_rows match the reference and reject bad indices") {
  for (int64_t f : {1, 3, 64}) {
    Tensor src = rand_tensor({20, f}, 1);
    std::vector<int64_t> idx = {3, 0, 19, 3, 7, 7, 7, 12};
    Tensor idx64 = Tensor::from_vector(idx);
    Tensor idx32 = idx64.to_dtype(DType::i32);
    std::vector<float> sh = host(src);
    std::vector<float> want(idx.size() * static_cast<size_t>(f));
    for (size_t i = 0; i < idx.size(); ++i)
      for (int64_t j = 0; j < f; ++j) want[i * static_cast<size_t>(f) + static_cast<size_t>(j)] = sh[static_cast<size_t>(idx[i] * f + j)];
    for (const Tensor& ix : {idx64, idx32}) {
      Tensor out = Tensor::empty({8, f}, DType::f32, ctx);
      kernels::gather_rows(ctx, src.to(ctx), ix.to(ctx), out);
      check_close(host(out), want);
      // scatter-add the gathered rows back onto a base
      Tensor base = rand_tensor({20, f}, 2);
      std::vector<float> acc = host(base);
      for (size_t i = 0; i < idx.size(); ++i)
        for (int64_t j = 0; j < f; ++j) acc[static_cast<size_t>(idx[i] * f + j)] += want[i * static_cast<size_t>(f) + static_cast<size_t>(j)];
      Tensor bd = base.to(ctx);
      kernels::scatter_add_rows(ctx, out, ix.to(ctx), bd);
      check_close(host(bd), acc);
    }
  }
  Tensor src = rand_tensor({4, 2}, 1).to(ctx);
  Tensor out = Tensor::empty({1, 2}, DType::f32, ctx);
  if (ctx.device().is_cpu())
    CHECK_THROWS_WITH_AS(kernels::gather_rows(ctx, src, Tensor::from_vector(std::vector<int32_t>{4}), out),
                         doctest::Contains("outside [0, 4)"), Error);
  Tensor empty_idx = Tensor::empty({0}, DType::i64, ctx);
  Tensor empty_out = Tensor::empty({0, 2}, DType::f32, ctx);
  kernels::gather_rows(ctx, src, empty_idx, empty_out);
  kernels::scatter_add_rows(ctx, empty_out, empty_idx, src);
}
