#pragma once
// The dense steps of the method on 2-D f32 tensors, rows = samples (embeddings Z are [samples, d]).
// Products, row gathers and normalization go through core/kernels on the given context (operands on
// another device are copied there first); the column statistics, distances and the Cholesky solve
// (double precision, small systems) read host copies of the values, from any device.
#include <cstdint>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

// A host tensor [rows, cols] that owns `values` (row-major; no pool).
Tensor host_matrix(std::vector<float> values, int64_t rows, int64_t cols);
// C = op(A) op(B) as a new tensor on ctx; throws Error on mismatched shapes.
Tensor matmul(DeviceContext& ctx, const Tensor& a, const Tensor& b, bool trans_a = false, bool trans_b = false);
// Rows `rows` of m (in that order) as a new tensor on ctx; throws Error for a row out of range.
Tensor select_rows(DeviceContext& ctx, const Tensor& m, const std::vector<int64_t>& rows);
// A copy of m on ctx.
Tensor copy_on(DeviceContext& ctx, const Tensor& m);
// Rows scaled to unit L2 norm (zero rows stay zero), as a new tensor on ctx.
Tensor l2_normalize_rows(DeviceContext& ctx, const Tensor& m);
// Solves (A + ridge * I) X = B for symmetric positive definite A (n x n), B (n x m), in double,
// through LAPACK (dpotrf + dpotrs; only A's lower triangle is read). Throws Error naming the pivot
// when the matrix is not positive definite even with the ridge.
std::vector<double> cholesky_solve(std::vector<double> a, int64_t n, const std::vector<double>& b, int64_t m, double ridge);
// Mean squared entry of (a - b).
double mean_squared_diff(const Tensor& a, const Tensor& b);
// Per-column mean and standard deviation (population; std floored at 1e-6).
void column_stats(const Tensor& m, std::vector<float>& mean, std::vector<float>& stdev);
// In place (any device, through a host copy): (m - mean) / stdev per column.
void standardize_columns(const Tensor& m, const std::vector<float>& mean, const std::vector<float>& stdev);
// The entries of a tensor (any device) in double precision.
std::vector<double> to_double(const Tensor& m);

}  // namespace mlsys::dataopt
