#include "dataopt/net/losses.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

double softmax_cross_entropy(const Matrix& logits, const std::vector<int32_t>& labels, Matrix& grad) {
  if (static_cast<int64_t>(labels.size()) != logits.rows) throw Error("cross entropy: label count differs from batch");
  grad = Matrix(logits.rows, logits.cols);
  double loss = 0;
  const double inv = 1.0 / static_cast<double>(std::max<int64_t>(1, logits.rows));
  for (int64_t i = 0; i < logits.rows; ++i) {
    const float* z = logits.row(i);
    const float mx = *std::max_element(z, z + logits.cols);
    double s = 0;
    for (int64_t j = 0; j < logits.cols; ++j) s += std::exp(static_cast<double>(z[j] - mx));
    const int32_t y = labels[static_cast<size_t>(i)];
    if (y < 0 || y >= logits.cols) throw Error("cross entropy: label " + std::to_string(y) + " outside the head's classes");
    loss += std::log(s) - (z[y] - mx);
    for (int64_t j = 0; j < logits.cols; ++j)
      grad.at(i, j) = static_cast<float>((std::exp(static_cast<double>(z[j] - mx)) / s - (j == y ? 1 : 0)) * inv);
  }
  return loss * inv;
}

double mean_squared_error(const Matrix& pred, const Matrix& target, Matrix& grad) {
  if (pred.rows != target.rows || pred.cols != target.cols) throw Error("mse: shapes differ");
  grad = Matrix(pred.rows, pred.cols);
  double loss = 0;
  const double inv = 1.0 / static_cast<double>(std::max<size_t>(1, pred.v.size()));
  for (size_t i = 0; i < pred.v.size(); ++i) {
    const double d = static_cast<double>(pred.v[i]) - target.v[i];
    loss += d * d;
    grad.v[i] = static_cast<float>(2 * d * inv);
  }
  return loss * inv;
}

double cosine_loss(const Matrix& pred, const Matrix& target, Matrix& grad, const std::vector<float>* row_weight) {
  if (row_weight && static_cast<int64_t>(row_weight->size()) != pred.rows) throw Error("cosine loss: one weight per row expected");
  if (pred.rows != target.rows || pred.cols != target.cols) throw Error("cosine loss: shapes differ");
  grad = Matrix(pred.rows, pred.cols);
  double loss = 0;
  const double inv = 1.0 / static_cast<double>(std::max<int64_t>(1, pred.rows));
  for (int64_t i = 0; i < pred.rows; ++i) {
    const float* p = pred.row(i);
    const float* t = target.row(i);
    double pp = 0, tt = 0, pt = 0;
    for (int64_t j = 0; j < pred.cols; ++j) {
      pp += static_cast<double>(p[j]) * p[j];
      tt += static_cast<double>(t[j]) * t[j];
      pt += static_cast<double>(p[j]) * t[j];
    }
    const double np = std::sqrt(pp) + 1e-12, nt = std::sqrt(tt) + 1e-12;
    const double cos = pt / (np * nt);
    const double wi = row_weight ? (*row_weight)[static_cast<size_t>(i)] * inv : inv;
    loss += (1 - cos) * wi;
    // d(-cos)/dp = -(t / (|p||t|) - cos * p / |p|^2)
    for (int64_t j = 0; j < pred.cols; ++j)
      grad.at(i, j) = static_cast<float>(-(t[j] / (np * nt) - cos * p[j] / (np * np)) * wi);
  }
  return loss;
}

}  // namespace mlsys::dataopt
