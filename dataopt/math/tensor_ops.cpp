#include "dataopt/math/tensor_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"

// LAPACK's Cholesky factorization and solve, from the OpenBLAS core links (Debian's libopenblas0
// exports LAPACK's Fortran symbols; no LAPACKE header is installed). Fortran convention: every
// argument by address, column-major storage, the length of each character argument last.
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, double* b, const int* ldb, int* info,
             size_t uplo_len);
}

namespace mlsys::dataopt {

namespace {

void require_matrix(const Tensor& t, const char* fn) {
  if (t.rank() != 2 || t.dtype() != DType::f32)
    throw Error(std::string(fn) + ": expected a 2-D f32 tensor, got " + (t.defined() ? t.str() : std::string("none")));
}

}  // namespace

Tensor host_matrix(std::vector<float> values, int64_t rows, int64_t cols) {
  return Tensor::from_vector(std::move(values), Shape{rows, cols});
}

Tensor matmul(DeviceContext& ctx, const Tensor& a, const Tensor& b, bool trans_a, bool trans_b) {
  require_matrix(a, "matmul");
  require_matrix(b, "matmul");
  const int64_t m = trans_a ? a.dim(1) : a.dim(0), k = trans_a ? a.dim(0) : a.dim(1);
  const int64_t kb = trans_b ? b.dim(1) : b.dim(0), n = trans_b ? b.dim(0) : b.dim(1);
  if (k != kb) throw Error("matmul: inner dimensions differ (" + std::to_string(k) + " vs " + std::to_string(kb) + ")");
  Tensor c = Tensor::empty({m, n}, DType::f32, ctx);
  kernels::gemm(ctx, a.to(ctx), trans_a, b.to(ctx), trans_b, c);
  return c;
}

Tensor select_rows(DeviceContext& ctx, const Tensor& m, const std::vector<int64_t>& rows) {
  for (int64_t r : rows)
    if (r < 0 || r >= m.rows()) throw Error("select_rows: row " + std::to_string(r) + " out of range");
  Shape s = m.shape();
  s[0] = static_cast<int64_t>(rows.size());
  Tensor out = Tensor::empty(s, DType::f32, ctx);
  if (rows.empty()) return out;
  kernels::gather_rows(ctx, m.to(ctx), Tensor::from_vector(std::vector<int64_t>(rows)).to(ctx), out);
  return out;
}

Tensor copy_on(DeviceContext& ctx, const Tensor& m) {
  Tensor out = Tensor::empty(m.shape(), m.dtype(), ctx);
  if (m.numel() > 0) out.copy_from(m);
  return out;
}

Tensor l2_normalize_rows(DeviceContext& ctx, const Tensor& m) {
  require_matrix(m, "l2_normalize_rows");
  Tensor out = Tensor::empty(m.shape(), DType::f32, ctx), norm = Tensor::empty({m.dim(0)}, DType::f32, ctx);
  // A zero row divided by the clamped norm stays zero.
  kernels::l2_normalize_rows(ctx, m.to(ctx), out, norm, 1e-30f);
  return out;
}

std::vector<double> cholesky_solve(std::vector<double> a, int64_t n, const std::vector<double>& b, int64_t m,
                                   double ridge) {
  if (static_cast<int64_t>(a.size()) != n * n || static_cast<int64_t>(b.size()) != n * m)
    throw Error("cholesky_solve: sizes do not match n=" + std::to_string(n));
  if (n > std::numeric_limits<int>::max() / std::max<int64_t>(n, 1) || m > std::numeric_limits<int>::max())
    throw Error("cholesky_solve: system too large for LAPACK's 32-bit sizes (n=" + std::to_string(n) + ")");
  if (n == 0 || m == 0) return std::vector<double>(b.size(), 0.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i * n + i)] += ridge;
  // LAPACK is column-major. A row-major lower triangle (the one the products fill) is the
  // column-major upper one, so 'U' factors A = U^T U from the same entries; B is transposed in and
  // X out.
  const int ni = static_cast<int>(n), mi = static_cast<int>(m);
  int info = 0;
  dpotrf_("U", &ni, a.data(), &ni, &info, 1);
  if (info < 0) throw Error("cholesky_solve: LAPACK dpotrf rejected argument " + std::to_string(-info));
  // info > 0 names the first pivot that is not positive; OpenBLAS lets a NaN pivot through, so the
  // factor's diagonal is checked too (the first NaN on it is where the NaN entered).
  int64_t pivot = info > 0 ? info - 1 : -1;
  for (int64_t j = 0; j < n && pivot < 0; ++j)
    if (!(a[static_cast<size_t>(j * n + j)] > 0)) pivot = j;
  if (pivot >= 0)
    throw Error("ridge system is not positive definite (pivot " + std::to_string(pivot) + "); increase coopt.align.ridge");
  std::vector<double> x(b.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < m; ++c) x[static_cast<size_t>(c * n + i)] = b[static_cast<size_t>(i * m + c)];
  dpotrs_("U", &ni, &mi, a.data(), &ni, x.data(), &ni, &info, 1);
  if (info != 0) throw Error("cholesky_solve: LAPACK dpotrs rejected argument " + std::to_string(-info));
  std::vector<double> out(b.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < m; ++c) out[static_cast<size_t>(i * m + c)] = x[static_cast<size_t>(c * n + i)];
  return out;
}

double mean_squared_diff(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) throw Error("mean_squared_diff: shapes differ (" + a.str() + " vs " + b.str() + ")");
  const std::vector<float> av = a.to_vector<float>(), bv = b.to_vector<float>();
  const float* x = av.data();
  const float* y = bv.data();
  double s = 0;
  for (int64_t i = 0; i < a.numel(); ++i) s += (static_cast<double>(x[i]) - y[i]) * (static_cast<double>(x[i]) - y[i]);
  return a.numel() ? s / static_cast<double>(a.numel()) : 0;
}

void column_stats(const Tensor& m, std::vector<float>& mean, std::vector<float>& stdev) {
  require_matrix(m, "column_stats");
  const int64_t rows = m.dim(0), cols = m.dim(1);
  const std::vector<float> values = m.to_vector<float>();
  const float* p = values.data();
  std::vector<double> s(static_cast<size_t>(cols), 0), q(static_cast<size_t>(cols), 0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const double v = p[i * cols + j];
      s[static_cast<size_t>(j)] += v;
      q[static_cast<size_t>(j)] += v * v;
    }
  mean.assign(static_cast<size_t>(cols), 0);
  stdev.assign(static_cast<size_t>(cols), 1);
  if (rows == 0) return;
  for (size_t j = 0; j < s.size(); ++j) {
    const double mu = s[j] / static_cast<double>(rows);
    const double var = std::max(0.0, q[j] / static_cast<double>(rows) - mu * mu);
    mean[j] = static_cast<float>(mu);
    stdev[j] = static_cast<float>(std::max(std::sqrt(var), 1e-6));
  }
}

void standardize_columns(const Tensor& m, const std::vector<float>& mean, const std::vector<float>& stdev) {
  require_matrix(m, "standardize_columns");
  const int64_t rows = m.dim(0), cols = m.dim(1);
  std::vector<float> values = m.to_vector<float>();  // one pass on a host copy, then back
  float* p = values.data();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      p[i * cols + j] = (p[i * cols + j] - mean[static_cast<size_t>(j)]) / stdev[static_cast<size_t>(j)];
  m.copy_from(Tensor::from_vector(std::move(values), m.shape()));
}

std::vector<double> to_double(const Tensor& m) {
  const std::vector<float> v = m.to_vector<float>();
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace mlsys::dataopt
