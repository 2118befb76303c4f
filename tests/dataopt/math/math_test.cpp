#include <doctest/doctest.h>

#include <cmath>

#include "dataopt/math/projection.hpp"
#include "dataopt/math/ridge.hpp"
#include "dataopt/math/rng.hpp"
#include "dataopt/math/uniformity.hpp"

using namespace mlsys::dataopt;

namespace {
Matrix random_matrix(int64_t r, int64_t c, uint64_t seed) {
  Matrix m(r, c);
  Rng rng(seed);
  for (float& x : m.v) x = static_cast<float>(rng.normal());
  return m;
}
}  // namespace

TEST_CASE("random projection: seeded, N(0, 1/n) entries, applied as Z W") {
  Matrix w = random_projection(200, 50, 9), w2 = random_projection(200, 50, 9), w3 = random_projection(200, 50, 10);
  CHECK(w.v == w2.v);
  CHECK(w.v != w3.v);
  double s = 0, q = 0;
  for (float x : w.v) s += x, q += static_cast<double>(x) * x;
  const double n = static_cast<double>(w.v.size());
  CHECK(std::abs(s / n) < 0.01);
  CHECK(q / n == doctest::Approx(1.0 / 50).epsilon(0.05));
  Matrix z = random_matrix(3, 200, 1);
  Matrix p = project(z, w);
  double direct = 0;
  for (int64_t k = 0; k < 200; ++k) direct += static_cast<double>(z.at(2, k)) * w.at(k, 7);
  CHECK(p.at(2, 7) == doctest::Approx(direct).epsilon(1e-4));
  CHECK_THROWS(project(random_matrix(2, 10, 1), w));
}

TEST_CASE("uniformity score matches the pairwise definition") {
  Matrix z = random_matrix(30, 6, 3);
  for (double t : {2.0, 0.5}) {
    double sum = 0;
    int pairs = 0;
    for (int64_t i = 0; i < z.rows; ++i)
      for (int64_t j = i + 1; j < z.rows; ++j) {
        double ni = 0, nj = 0, d2 = 0;
        for (int64_t k = 0; k < z.cols; ++k) ni += z.at(i, k) * z.at(i, k), nj += z.at(j, k) * z.at(j, k);
        for (int64_t k = 0; k < z.cols; ++k) {
          const double d = z.at(i, k) / std::sqrt(ni) - z.at(j, k) / std::sqrt(nj);
          d2 += d * d;
        }
        sum += std::exp(-t * d2);
        ++pairs;
      }
    CHECK(uniformity_score(z, t) == doctest::Approx(std::log(sum / pairs)).epsilon(1e-5));
  }
  // Collapsed embeddings are the least uniform possible: V = 0.
  Matrix same(5, 3, 1.0f);
  CHECK(uniformity_score(same) == doctest::Approx(0.0));
  CHECK(uniformity_score(random_matrix(50, 8, 4)) < -1.0);
}

TEST_CASE("ridge fit solves the regularized normal equations") {
  Matrix a = random_matrix(40, 5, 7), b = random_matrix(40, 3, 8);
  const double ridge = 0.1;
  Matrix t = ridge_fit(a, b, ridge);
  // (A^T A + lambda I) T = A^T B with lambda = ridge * mean(diag(A^T A)).
  Matrix ata = matmul(a, a, true), atb = matmul(a, b, true);
  double diag = 0;
  for (int i = 0; i < 5; ++i) diag += ata.at(i, i);
  const double lambda = ridge * diag / 5;
  Matrix lhs = matmul(ata, t);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) CHECK(lhs.at(i, j) + lambda * t.at(i, j) == doctest::Approx(atb.at(i, j)).epsilon(1e-3));
}

TEST_CASE("alignment recovers a hidden linear map and reduces the error on S") {
  Matrix a = random_matrix(200, 8, 1), hidden = random_matrix(8, 8, 2);
  Matrix b = matmul(a, hidden);
  const double before = mean_squared_diff(a, b);
  Matrix t = ridge_fit(a, b, 1e-6);
  const double after = mean_squared_diff(matmul(a, t), b);
  CHECK(after < 1e-4 * before);
  for (size_t i = 0; i < t.v.size(); ++i) CHECK(t.v[i] == doctest::Approx(hidden.v[i]).epsilon(1e-2));
}

TEST_CASE("alignment with an intercept recovers an affine map, leave-one-out R^2 matches refitting") {
  Matrix a = random_matrix(60, 4, 3), hidden = random_matrix(4, 3, 4);
  Matrix b = matmul(a, hidden);
  for (int64_t i = 0; i < b.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j) b.at(i, j) += 5.0f + static_cast<float>(j);  // an offset no map through 0 fits
  const Alignment fit = fit_alignment(a, b, 1e-6, true);
  CHECK(mean_squared_diff(fit.apply(a), b) < 1e-6);
  CHECK(fit.loo_r2 == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(fit_alignment(a, b, 1e-6, false).loo_r2 < 0.9);
  // With noise the closed form equals refitting without each row in turn.
  Matrix noisy = b, noise = random_matrix(60, 3, 5);
  for (size_t i = 0; i < noisy.v.size(); ++i) noisy.v[i] += noise.v[i];
  for (bool intercept : {true, false}) {
    const Alignment f = fit_alignment(a, noisy, 0.05, intercept);
    double press = 0, total = 0;
    std::vector<float> mean, sd;
    column_stats(noisy, mean, sd);
    for (int64_t i = 0; i < a.rows; ++i) {
      std::vector<int64_t> keep;
      for (int64_t r = 0; r < a.rows; ++r)
        if (r != i) keep.push_back(r);
      // Refit on the other rows with the same absolute ridge: rescale the relative one.
      Matrix ak = a.select_rows(keep), bk = noisy.select_rows(keep);
      auto centered_diag = [&](const Matrix& x) {
        std::vector<float> mu, s2;
        column_stats(x, mu, s2);
        double d = 0;
        for (int64_t r = 0; r < x.rows; ++r)
          for (int64_t j = 0; j < x.cols; ++j) {
            const double v = x.at(r, j) - (intercept ? mu[static_cast<size_t>(j)] : 0.0f);
            d += v * v;
          }
        return d;
      };
      const double rel = 0.05 * centered_diag(a) / centered_diag(ak);
      const Alignment fk = fit_alignment(ak, bk, rel, intercept);
      const Matrix pred = fk.apply(a.select_rows({i}));
      for (int64_t j = 0; j < 3; ++j) {
        const double e = noisy.at(i, j) - pred.at(0, j), d = noisy.at(i, j) - mean[static_cast<size_t>(j)];
        press += e * e;
        total += d * d;
      }
    }
    CHECK(f.loo_r2 == doctest::Approx(1.0 - press / total).epsilon(1e-3));
  }
  const Alignment id = identity_alignment(3);
  CHECK(id.apply(noise).v == noise.v);
}

TEST_CASE("cholesky solve rejects an indefinite system") {
  std::vector<double> a{1, 2, 2, 1};
  CHECK_THROWS(cholesky_solve(a, 2, {1, 1}, 1, 0));
  std::vector<double> x = cholesky_solve({4, 1, 1, 3}, 2, {1, 2}, 1, 0);
  CHECK(4 * x[0] + x[1] == doctest::Approx(1));
  CHECK(x[0] + 3 * x[1] == doctest::Approx(2));
}
