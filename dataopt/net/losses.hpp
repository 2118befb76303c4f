#pragma once
// Losses returning the batch mean and writing d(loss)/d(prediction) into grad.
#include <cstdint>
#include <vector>

#include "dataopt/math/matrix.hpp"

namespace mlsys::dataopt {

double softmax_cross_entropy(const Matrix& logits, const std::vector<int32_t>& labels, Matrix& grad);
double mean_squared_error(const Matrix& pred, const Matrix& target, Matrix& grad);
// 1 - cos(pred_i, target_i), averaged over rows; with `row_weight`, row i counts row_weight[i] times.
double cosine_loss(const Matrix& pred, const Matrix& target, Matrix& grad, const std::vector<float>* row_weight = nullptr);

}  // namespace mlsys::dataopt
