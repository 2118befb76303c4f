#pragma once
// A row-major float matrix and the few dense operations the method needs (OpenBLAS sgemm, a
// double-precision Cholesky solve). Rows are samples throughout: embeddings Z are (samples x d).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlsys::dataopt {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<float> v;
  Matrix() = default;
  Matrix(int64_t r, int64_t c, float fill = 0) : rows(r), cols(c), v(static_cast<size_t>(r * c), fill) {}
  float* row(int64_t i) { return v.data() + i * cols; }
  const float* row(int64_t i) const { return v.data() + i * cols; }
  float& at(int64_t i, int64_t j) { return v[static_cast<size_t>(i * cols + j)]; }
  float at(int64_t i, int64_t j) const { return v[static_cast<size_t>(i * cols + j)]; }
  Matrix select_rows(const std::vector<int64_t>& idx) const;
};

// C = A * B (or with A / B transposed). Shapes are checked; throws Error on mismatch.
Matrix matmul(const Matrix& a, const Matrix& b, bool trans_a = false, bool trans_b = false);
// Rows scaled to unit L2 norm (zero rows stay zero).
Matrix l2_normalize_rows(const Matrix& m);
// Solves (A + ridge * I) X = B for symmetric positive definite A (n x n), B (n x m), in double.
// Throws Error when the matrix is not positive definite even with the ridge.
std::vector<double> cholesky_solve(std::vector<double> a, int64_t n, const std::vector<double>& b, int64_t m, double ridge);
// Mean squared entry of (a - b).
double mean_squared_diff(const Matrix& a, const Matrix& b);
// Per-column mean and standard deviation (population; std floored at 1e-6).
void column_stats(const Matrix& m, std::vector<float>& mean, std::vector<float>& stdev);
void standardize_columns(Matrix& m, const std::vector<float>& mean, const std::vector<float>& stdev);

}  // namespace mlsys::dataopt
