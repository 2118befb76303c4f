#include "dataopt/eval/probe.hpp"

#include <algorithm>

#include "core/util/error.hpp"
#include "dataopt/math/rng.hpp"

namespace mlsys::dataopt {

namespace {

// Standardized features with a trailing 1 (bias).
Matrix design(const Matrix& f, const std::vector<float>& mean, const std::vector<float>& stdev) {
  Matrix x(f.rows, f.cols + 1);
  for (int64_t i = 0; i < f.rows; ++i) {
    for (int64_t j = 0; j < f.cols; ++j)
      x.at(i, j) = (f.at(i, j) - mean[static_cast<size_t>(j)]) / stdev[static_cast<size_t>(j)];
    x.at(i, f.cols) = 1;
  }
  return x;
}

std::vector<double> gram(const Matrix& x, const std::vector<int64_t>& rows) {
  Matrix sub = x.select_rows(rows);
  Matrix g = matmul(sub, sub, true, false);
  return {g.v.begin(), g.v.end()};
}

std::vector<double> cross(const Matrix& x, const std::vector<int32_t>& y, const std::vector<int64_t>& rows, int classes) {
  std::vector<double> out(static_cast<size_t>(x.cols * classes), 0);
  for (int64_t r : rows)
    for (int64_t j = 0; j < x.cols; ++j) out[static_cast<size_t>(j * classes + y[static_cast<size_t>(r)])] += x.at(r, j);
  return out;
}

int64_t correct(const Matrix& x, const std::vector<int32_t>& y, const std::vector<int64_t>& rows,
                const std::vector<double>& w, int classes) {
  int64_t ok = 0;
  for (int64_t r : rows) {
    int best = 0;
    double best_s = -1e300;
    for (int c = 0; c < classes; ++c) {
      double s = 0;
      for (int64_t j = 0; j < x.cols; ++j) s += x.at(r, j) * w[static_cast<size_t>(j * classes + c)];
      if (s > best_s) best_s = s, best = c;
    }
    ok += best == y[static_cast<size_t>(r)];
  }
  return ok;
}

}  // namespace

ProbeResult linear_probe(const Matrix& train_features, const std::vector<int32_t>& train_labels,
                         const Matrix& test_features, const std::vector<int32_t>& test_labels, int classes,
                         const std::vector<float>& mean, const std::vector<float>& stdev, double ridge) {
  if (train_features.rows != static_cast<int64_t>(train_labels.size()) ||
      test_features.rows != static_cast<int64_t>(test_labels.size()))
    throw Error("linear probe: feature and label counts differ");
  if (train_features.rows == 0) throw Error("linear probe: no labeled rows");
  const Matrix xtr = design(train_features, mean, stdev), xte = design(test_features, mean, stdev);
  const int64_t d = xtr.cols;
  std::vector<int64_t> all(static_cast<size_t>(xtr.rows));
  for (int64_t i = 0; i < xtr.rows; ++i) all[static_cast<size_t>(i)] = i;
  std::vector<double> g = gram(xtr, all);
  const std::vector<double> c = cross(xtr, train_labels, all, classes);
  double diag = 0;
  for (int64_t i = 0; i < d; ++i) diag += g[static_cast<size_t>(i * d + i)];
  diag = diag > 0 ? diag / static_cast<double>(d) : 1;
  ProbeResult res;
  // Default: lambda = d, i.e. a N(0, 1/d) prior on each weight of standardized features, so the
  // prior variance of every class score is 1 like the one-hot targets. No search, no test peeking.
  res.ridge = ridge > 0 ? ridge : static_cast<double>(d) / diag;
  const std::vector<double> w = cholesky_solve(std::move(g), d, c, classes, res.ridge * diag);
  std::vector<int64_t> test_rows(static_cast<size_t>(xte.rows));
  for (int64_t i = 0; i < xte.rows; ++i) test_rows[static_cast<size_t>(i)] = i;
  res.accuracy = xte.rows ? static_cast<double>(correct(xte, test_labels, test_rows, w, classes)) / static_cast<double>(xte.rows) : 0;
  return res;
}

std::vector<int64_t> labeled_subset(const std::vector<int32_t>& labels, int classes, int per_class, uint64_t seed) {
  Rng rng(seed);
  std::vector<int64_t> order = rng.permutation(static_cast<int64_t>(labels.size()));
  std::vector<int> taken(static_cast<size_t>(classes), 0);
  std::vector<int64_t> out;
  for (int64_t i : order) {
    const int32_t c = labels[static_cast<size_t>(i)];
    if (c >= 0 && c < classes && taken[static_cast<size_t>(c)] < per_class) {
      ++taken[static_cast<size_t>(c)];
      out.push_back(i);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mlsys::dataopt
