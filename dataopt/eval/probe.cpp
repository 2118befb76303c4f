#include "dataopt/eval/probe.hpp"

#include <algorithm>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace {

// Standardized features with a trailing 1 (bias), as a host tensor (built from a host copy of f).
Tensor design(const Tensor& f, const std::vector<float>& mean, const std::vector<float>& stdev) {
  const int64_t rows = f.dim(0), cols = f.dim(1);
  Tensor x = Tensor::empty({rows, cols + 1}, DType::f32);
  const std::vector<float> fv = f.to_vector<float>();
  const float* src = fv.data();
  float* dst = x.data<float>();
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j)
      dst[i * (cols + 1) + j] = (src[i * cols + j] - mean[static_cast<size_t>(j)]) / stdev[static_cast<size_t>(j)];
    dst[i * (cols + 1) + cols] = 1;
  }
  return x;
}

// X^T Y for one-hot Y (classes columns), in double; x is a host tensor.
std::vector<double> cross(const Tensor& x, const std::vector<int32_t>& y, int classes) {
  const int64_t rows = x.dim(0), cols = x.dim(1);
  const float* p = x.data<float>();
  std::vector<double> out(static_cast<size_t>(cols * classes), 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) out[static_cast<size_t>(j * classes + y[static_cast<size_t>(r)])] += p[r * cols + j];
  return out;
}

}  // namespace

ProbeResult linear_probe(DeviceContext& ctx, const Tensor& train_features, const std::vector<int32_t>& train_labels,
                         const Tensor& test_features, const std::vector<int32_t>& test_labels, int classes,
                         const std::vector<float>& mean, const std::vector<float>& stdev, double ridge) {
  if (train_features.rows() != static_cast<int64_t>(train_labels.size()) ||
      test_features.rows() != static_cast<int64_t>(test_labels.size()))
    throw Error("linear probe: feature and label counts differ");
  if (train_features.rows() == 0) throw Error("linear probe: no labeled rows");
  const Tensor xtr = design(train_features, mean, stdev), xte = design(test_features, mean, stdev);
  const int64_t d = xtr.dim(1);
  const Tensor gram = matmul(ctx, xtr, xtr, true, false);
  std::vector<double> g = to_double(gram);
  const std::vector<double> c = cross(xtr, train_labels, classes);
  double diag = 0;
  for (int64_t i = 0; i < d; ++i) diag += g[static_cast<size_t>(i * d + i)];
  diag = diag > 0 ? diag / static_cast<double>(d) : 1;
  ProbeResult res;
  // Default: lambda = d, i.e. a N(0, 1/d) prior on each weight of standardized features, so the
  // prior variance of every class score is 1 like the one-hot targets. No search, no test peeking.
  res.ridge = ridge > 0 ? ridge : static_cast<double>(d) / diag;
  const std::vector<double> w = cholesky_solve(std::move(g), d, c, classes, res.ridge * diag);
  if (xte.rows() == 0) return res;
  // Class scores of the test rows and the rows whose best class is the label.
  const Tensor scores = matmul(ctx, xte, host_matrix(std::vector<float>(w.begin(), w.end()), d, classes));  // on ctx
  const int64_t ok = kernels::count_correct(ctx, scores, Tensor::from_vector(std::vector<int32_t>(test_labels)).to(ctx), Tensor());
  res.accuracy = static_cast<double>(ok) / static_cast<double>(xte.rows());
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
