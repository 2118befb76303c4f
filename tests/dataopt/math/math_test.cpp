#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <tuple>

#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/math/projection.hpp"
#include "dataopt/math/ridge.hpp"
#include "dataopt/math/tensor_ops.hpp"
#include "dataopt/math/uniformity.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {
Tensor random_matrix(int64_t r, int64_t c, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(r * c));
  Rng rng(seed);
  for (float& x : v) x = static_cast<float>(rng.normal());
  return host_matrix(std::move(v), r, c);
}
float at(const Tensor& m, int64_t i, int64_t j) { return m.data<float>()[i * m.dim(1) + j]; }
std::vector<float> values(const Tensor& m) { return m.to_vector<float>(); }
}  // namespace

TEST_CASE("random projection: seeded, N(0, 1/n) entries, applied as Z W") {
  DeviceContext ctx(Device::cpu());
  Tensor w = random_projection(200, 50, 9), w2 = random_projection(200, 50, 9), w3 = random_projection(200, 50, 10);
  CHECK(values(w) == values(w2));
  CHECK(values(w) != values(w3));
  double s = 0, q = 0;
  for (float x : values(w)) s += x, q += static_cast<double>(x) * x;
  const double n = static_cast<double>(w.numel());
  CHECK(std::abs(s / n) < 0.01);
  CHECK(q / n == doctest::Approx(1.0 / 50).epsilon(0.05));
  CHECK(projection_seed(1, 0) != projection_seed(1, 1));
  Tensor z = random_matrix(3, 200, 1);
  Tensor p = project(ctx, z, w);
  double direct = 0;
  for (int64_t k = 0; k < 200; ++k) direct += static_cast<double>(at(z, 2, k)) * at(w, k, 7);
  CHECK(at(p, 2, 7) == doctest::Approx(direct).epsilon(1e-4));
  CHECK_THROWS(project(ctx, random_matrix(2, 10, 1), w));
}

TEST_CASE("uniformity score matches the pairwise definition") {
  DeviceContext ctx(Device::cpu());
  Tensor z = random_matrix(30, 6, 3);
  for (double t : {2.0, 0.5}) {
    double sum = 0;
    int pairs = 0;
    for (int64_t i = 0; i < z.rows(); ++i)
      for (int64_t j = i + 1; j < z.rows(); ++j) {
        double ni = 0, nj = 0, d2 = 0;
        for (int64_t k = 0; k < z.dim(1); ++k) ni += at(z, i, k) * at(z, i, k), nj += at(z, j, k) * at(z, j, k);
        for (int64_t k = 0; k < z.dim(1); ++k) {
          const double d = at(z, i, k) / std::sqrt(ni) - at(z, j, k) / std::sqrt(nj);
          d2 += d * d;
        }
        sum += std::exp(-t * d2);
        ++pairs;
      }
    CHECK(uniformity_score(ctx, z, t) == doctest::Approx(std::log(sum / pairs)).epsilon(1e-5));
  }
  // Collapsed embeddings are the least uniform possible: V = 0.
  Tensor same = host_matrix(std::vector<float>(15, 1.0f), 5, 3);
  CHECK(uniformity_score(ctx, same) == doctest::Approx(0.0));
  CHECK(uniformity_score(ctx, random_matrix(50, 8, 4)) < -1.0);
}

TEST_CASE("ridge fit solves the regularized normal equations") {
  DeviceContext ctx(Device::cpu());
  Tensor a = random_matrix(40, 5, 7), b = random_matrix(40, 3, 8);
  const double ridge = 0.1;
  Tensor t = ridge_fit(ctx, a, b, ridge);
  // (A^T A + lambda I) T = A^T B with lambda = ridge * mean(diag(A^T A)).
  Tensor ata = matmul(ctx, a, a, true), atb = matmul(ctx, a, b, true);
  double diag = 0;
  for (int i = 0; i < 5; ++i) diag += at(ata, i, i);
  const double lambda = ridge * diag / 5;
  Tensor lhs = matmul(ctx, ata, t);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) CHECK(at(lhs, i, j) + lambda * at(t, i, j) == doctest::Approx(at(atb, i, j)).epsilon(1e-3));
}

TEST_CASE("alignment recovers a hidden linear map and reduces the error on S") {
  DeviceContext ctx(Device::cpu());
  Tensor a = random_matrix(200, 8, 1), hidden = random_matrix(8, 8, 2);
  Tensor b = matmul(ctx, a, hidden);
  const double before = mean_squared_diff(a, b);
  Tensor t = ridge_fit(ctx, a, b, 1e-6);
  const double after = mean_squared_diff(matmul(ctx, a, t), b);
  CHECK(after < 1e-4 * before);
  const std::vector<float> tv = values(t), hv = values(hidden);
  for (size_t i = 0; i < tv.size(); ++i) CHECK(tv[i] == doctest::Approx(hv[i]).epsilon(1e-2));
}

TEST_CASE("alignment with an intercept recovers an affine map, leave-one-out R^2 matches refitting") {
  DeviceContext ctx(Device::cpu());
  Tensor a = random_matrix(60, 4, 3), hidden = random_matrix(4, 3, 4);
  Tensor b = matmul(ctx, a, hidden);
  for (int64_t i = 0; i < b.rows(); ++i)
    for (int64_t j = 0; j < b.dim(1); ++j)
      b.data<float>()[i * 3 + j] += 5.0f + static_cast<float>(j);  // an offset no map through 0 fits
  const Alignment fit = fit_alignment(ctx, a, b, 1e-6, true);
  CHECK(mean_squared_diff(fit.apply(ctx, a), b) < 1e-6);
  CHECK(fit.loo_r2 == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(fit_alignment(ctx, a, b, 1e-6, false).loo_r2 < 0.9);
  // With noise the closed form equals refitting without each row in turn.
  Tensor noisy = copy_on(ctx, b), noise = random_matrix(60, 3, 5);
  for (int64_t i = 0; i < noisy.numel(); ++i) noisy.data<float>()[i] += noise.data<float>()[i];
  for (bool intercept : {true, false}) {
    const Alignment f = fit_alignment(ctx, a, noisy, 0.05, intercept);
    double press = 0, total = 0;
    std::vector<float> mean, sd;
    column_stats(noisy, mean, sd);
    for (int64_t i = 0; i < a.rows(); ++i) {
      std::vector<int64_t> keep;
      for (int64_t r = 0; r < a.rows(); ++r)
        if (r != i) keep.push_back(r);
      // Refit on the other rows with the same absolute ridge: rescale the relative one.
      Tensor ak = select_rows(ctx, a, keep), bk = select_rows(ctx, noisy, keep);
      auto centered_diag = [&](const Tensor& x) {
        std::vector<float> mu, s2;
        column_stats(x, mu, s2);
        double d = 0;
        for (int64_t r = 0; r < x.rows(); ++r)
          for (int64_t j = 0; j < x.dim(1); ++j) {
            const double v = at(x, r, j) - (intercept ? mu[static_cast<size_t>(j)] : 0.0f);
            d += v * v;
          }
        return d;
      };
      const double rel = 0.05 * centered_diag(a) / centered_diag(ak);
      const Alignment fk = fit_alignment(ctx, ak, bk, rel, intercept);
      const Tensor pred = fk.apply(ctx, select_rows(ctx, a, {i}));
      for (int64_t j = 0; j < 3; ++j) {
        const double e = at(noisy, i, j) - at(pred, 0, j), d = at(noisy, i, j) - mean[static_cast<size_t>(j)];
        press += e * e;
        total += d * d;
      }
    }
    CHECK(f.loo_r2 == doctest::Approx(1.0 - press / total).epsilon(1e-3));
  }
  const Alignment id = identity_alignment(3);
  CHECK(values(id.apply(ctx, noise)) == values(noise));
}

TEST_CASE("dense helpers: row selection, normalization, column statistics") {
  DeviceContext ctx(Device::cpu());
  Tensor m = host_matrix({3, 4, 0, 0, 1, 2}, 3, 2);
  CHECK(values(select_rows(ctx, m, {2, 0})) == std::vector<float>{1, 2, 3, 4});
  CHECK_THROWS_WITH(select_rows(ctx, m, {3}), doctest::Contains("row 3 out of range"));
  const std::vector<float> unit = values(l2_normalize_rows(ctx, m));
  CHECK(unit[0] == doctest::Approx(0.6));
  CHECK(unit[1] == doctest::Approx(0.8));
  CHECK(unit[2] == 0.0f);  // a zero row stays zero
  std::vector<float> mean, sd;
  column_stats(m, mean, sd);
  CHECK(mean[0] == doctest::Approx(4.0 / 3));
  CHECK(sd[1] == doctest::Approx(std::sqrt((16 + 0 + 4) / 3.0 - 4.0)));
  standardize_columns(m, mean, sd);
  column_stats(m, mean, sd);
  CHECK(mean[0] == doctest::Approx(0.0).scale(1));
  CHECK(sd[0] == doctest::Approx(1.0));
  CHECK(mean_squared_diff(host_matrix({1, 2}, 1, 2), host_matrix({1, 4}, 1, 2)) == doctest::Approx(2.0));
  CHECK_THROWS(matmul(ctx, m, m));
}

namespace {

// The textbook Cholesky solve dataopt ran before LAPACK (row-major lower factor, then forward and
// back substitution per column): the oracle the LAPACK results are held to.
std::vector<double> textbook_cholesky_solve(std::vector<double> a, int64_t n, std::vector<double> x, int64_t m, double ridge) {
  auto at = [n](int64_t i, int64_t j) { return static_cast<size_t>(i * n + j); };
  auto xi = [m](int64_t i, int64_t c) { return static_cast<size_t>(i * m + c); };
  for (int64_t i = 0; i < n; ++i) a[at(i, i)] += ridge;
  for (int64_t j = 0; j < n; ++j) {
    double d = a[at(j, j)];
    for (int64_t k = 0; k < j; ++k) d -= a[at(j, k)] * a[at(j, k)];
    a[at(j, j)] = std::sqrt(d);
    for (int64_t i = j + 1; i < n; ++i) {
      double s = a[at(i, j)];
      for (int64_t k = 0; k < j; ++k) s -= a[at(i, k)] * a[at(j, k)];
      a[at(i, j)] = s / a[at(j, j)];
    }
  }
  for (int64_t c = 0; c < m; ++c) {
    for (int64_t i = 0; i < n; ++i) {
      double s = x[xi(i, c)];
      for (int64_t k = 0; k < i; ++k) s -= a[at(i, k)] * x[xi(k, c)];
      x[xi(i, c)] = s / a[at(i, i)];
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      double s = x[xi(i, c)];
      for (int64_t k = i + 1; k < n; ++k) s -= a[at(k, i)] * x[xi(k, c)];
      x[xi(i, c)] = s / a[at(i, i)];
    }
  }
  return x;
}

std::string error_of(const std::function<void()>& f) { return test::thrown_message<Error>(f); }

}  // namespace

TEST_CASE("cholesky solve through LAPACK matches the textbook factorization to rounding, reading the lower triangle") {
  // The fixture: Gram matrices G^T G of seeded normal G, as the ridge fit and the probe build them
  // (n = 200 crosses OpenBLAS's blocking), with several right-hand sides.
  for (const auto& [rows, n, m, ridge] : {std::tuple{60, 40, 3, 0.1}, std::tuple{300, 200, 10, 1e-3}, std::tuple{5, 1, 2, 0.0}}) {
    CAPTURE(n);
    Rng rng(static_cast<uint64_t>(n));
    std::vector<double> g(static_cast<size_t>(rows * n)), a(static_cast<size_t>(n * n), 0.0), b(static_cast<size_t>(n * m));
    for (double& v : g) v = rng.normal();
    for (double& v : b) v = rng.normal();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int r = 0; r < rows; ++r) a[static_cast<size_t>(i * n + j)] += g[static_cast<size_t>(r * n + i)] * g[static_cast<size_t>(r * n + j)];
    const std::vector<double> x = cholesky_solve(a, n, b, m, ridge), old = textbook_cholesky_solve(a, n, b, m, ridge);
    double scale = 0, diff = 0, residual = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      scale = std::max(scale, std::abs(old[i]));
      diff = std::max(diff, std::abs(x[i] - old[i]));
    }
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < m; ++c) {
        double s = ridge * x[static_cast<size_t>(i * m + c)] - b[static_cast<size_t>(i * m + c)];
        for (int k = 0; k < n; ++k) s += a[static_cast<size_t>(i * n + k)] * x[static_cast<size_t>(k * m + c)];
        residual = std::max(residual, std::abs(s));
      }
    MESSAGE("n=" << n << ": max |LAPACK - textbook| = " << diff << " (largest |x| " << scale << "), max residual " << residual);
    CHECK(diff <= 1e-10 * scale);
    CHECK(residual < 1e-9);
    // Only the lower triangle is read: garbage above the diagonal changes nothing.
    std::vector<double> lower = a;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) lower[static_cast<size_t>(i * n + j)] = 1e30;
    CHECK(cholesky_solve(lower, n, b, m, ridge) == x);
  }
}

TEST_CASE("cholesky solve rejects an indefinite system naming the pivot, as before") {
  // Pivot 1 of [[1, 2], [2, 1]] is 1 - 4 < 0; pivot 2 of the 3 x 3 one; a NaN fails at its pivot.
  const std::string msg = error_of([] { cholesky_solve({1, 2, 2, 1}, 2, {1, 1}, 1, 0); });
  CHECK(msg == "ridge system is not positive definite (pivot 1); increase coopt.align.ridge");
  CHECK(error_of([] { cholesky_solve({4, 0, 0, 0, 1, 0, 0, 0, -1}, 3, {1, 1, 1}, 1, 0); }).find("(pivot 2)") != std::string::npos);
  CHECK(error_of([] { cholesky_solve({4, 0, 0, 0, 1, 0, 0, 0, -1}, 3, {1, 1, 1}, 1, 2); }).empty());  // the ridge makes it definite
  CHECK(error_of([] { cholesky_solve({std::nan(""), 0, 0, 1}, 2, {1, 1}, 1, 0); }).find("(pivot 0)") != std::string::npos);
  CHECK(error_of([] { cholesky_solve({1, 0, 0, 1}, 2, {1, 1, 1}, 1, 0); }).find("cholesky_solve: sizes do not match") != std::string::npos);
  std::vector<double> x = cholesky_solve({4, 1, 1, 3}, 2, {1, 2}, 1, 0);
  CHECK(4 * x[0] + x[1] == doctest::Approx(1));
  CHECK(x[0] + 3 * x[1] == doctest::Approx(2));
  CHECK(cholesky_solve({}, 0, {}, 0, 1).empty());
}
