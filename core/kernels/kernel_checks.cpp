#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels {

namespace detail {

static std::string where(const char* fn, const char* arg) { return std::string("kernels::") + fn + ": " + arg; }

void require_f32(const Tensor& t, const char* fn, const char* arg) {
  if (!t.defined()) throw Error(where(fn, arg) + " is required");
  if (t.dtype() != DType::f32) throw Error(where(fn, arg) + " must be f32, got " + t.str());
}

void require_index(const Tensor& t, const char* fn, const char* arg) {
  if (!t.defined()) throw Error(where(fn, arg) + " is required");
  if (t.dtype() != DType::i32 && t.dtype() != DType::i64)
    throw Error(where(fn, arg) + " must be an i32 or i64 index array, got " + t.str());
}

void require_numel(const Tensor& t, int64_t n, const char* fn, const char* arg) {
  if (t.numel() != n)
    throw Error(where(fn, arg) + " must have " + std::to_string(n) + " elements, got " + t.str());
}

void require_same_numel(const Tensor& a, const Tensor& b, const char* fn) {
  if (a.numel() != b.numel())
    throw Error(std::string("kernels::") + fn + ": element counts differ: " + a.str() + " vs " + b.str());
}

void require_rows_cols(const Tensor& t, int64_t rows, int64_t cols, const char* fn, const char* arg) {
  require_f32(t, fn, arg);
  int64_t r = t.rank() == 0 ? 1 : t.shape()[0];
  if (r != rows || t.numel() != rows * cols)
    throw Error(where(fn, arg) + " must be [" + std::to_string(rows) + ", " + std::to_string(cols) + "], got " + t.str());
}

int64_t edge_heads(const Tensor& e, int64_t nnz, const char* fn, const char* arg) {
  require_f32(e, fn, arg);
  if (e.rows() != nnz || (e.rank() != 1 && e.rank() != 2))
    throw Error(where(fn, arg) + " must be [nnz] or [nnz, heads] with nnz = " + std::to_string(nnz) + ", got " + e.str());
  return e.rank() == 1 ? 1 : e.shape()[1];
}

GemmDims check_gemm(const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c) {
  require_f32(a, "gemm", "a");
  require_f32(b, "gemm", "b");
  require_f32(c, "gemm", "c");
  if (a.rank() != 2 || b.rank() != 2 || c.rank() != 2)
    throw Error("kernels::gemm: a, b, c must be 2-D, got " + a.str() + ", " + b.str() + ", " + c.str());
  GemmDims d{ta ? a.dim(1) : a.dim(0), tb ? b.dim(0) : b.dim(1), ta ? a.dim(0) : a.dim(1)};
  const int64_t kb = tb ? b.dim(1) : b.dim(0);
  if (d.k != kb || c.dim(0) != d.m || c.dim(1) != d.n)
    throw Error("kernels::gemm: op(a) is " + std::to_string(d.m) + "x" + std::to_string(d.k) + ", op(b) " +
                std::to_string(kb) + "x" + std::to_string(d.n) + ", c " + c.shape().str() +
                " (inner sizes and c must agree)");
  return d;
}

RowDims check_layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& y, const Tensor& mean,
                         const Tensor& rstd) {
  require_f32(x, "layer_norm", "x");
  const RowDims d{x.rows(), x.row_numel()};
  require_rows_cols(y, d.n, d.f, "layer_norm", "y");
  require_rows_cols(mean, d.n, 1, "layer_norm", "mean");
  require_rows_cols(rstd, d.n, 1, "layer_norm", "rstd");
  if (gamma.defined()) require_numel(gamma, d.f, "layer_norm", "gamma");
  if (beta.defined()) require_numel(beta, d.f, "layer_norm", "beta");
  return d;
}

RowDims check_cosine(const Tensor& a, const Tensor& b, const Tensor& ga, const Tensor& gb, const Tensor& w) {
  require_f32(a, "cosine_similarity_loss", "a");
  const RowDims d{a.rows(), a.row_numel()};
  require_rows_cols(b, d.n, d.f, "cosine_similarity_loss", "b");
  if (ga.defined()) require_rows_cols(ga, d.n, d.f, "cosine_similarity_loss", "grad_a");
  if (gb.defined()) require_rows_cols(gb, d.n, d.f, "cosine_similarity_loss", "grad_b");
  if (w.defined()) {
    require_f32(w, "cosine_similarity_loss", "row_weight");
    require_numel(w, d.n, "cosine_similarity_loss", "row_weight");
  }
  return d;
}

RowDims check_l2_normalize(const Tensor& x, const Tensor& y, const Tensor& norm, const char* fn) {
  require_f32(x, fn, "x");
  const RowDims d{x.rows(), x.row_numel()};
  require_rows_cols(y, d.n, d.f, fn, "y");
  require_f32(norm, fn, "norm");
  require_numel(norm, d.n, fn, "norm");
  return d;
}

namespace {
void require_ids(const Tensor& ids, int64_t n, const char* fn) {
  if (!ids.defined() || ids.dtype() != DType::i32) throw Error(where(fn, "row_ids") + " must be an i32 tensor");
  require_numel(ids, n, fn, "row_ids");
}
void require_p(float p, const char* fn) {
  if (!(p >= 0.f && p < 1.f)) throw Error(std::string("kernels::") + fn + ": p must be in [0, 1), got " + std::to_string(p));
}
}  // namespace

RowDims check_dropout_keyed(const Tensor& x, const Tensor& src, const Tensor& ids, float p, const Tensor& out) {
  const char* fn = "dropout_keyed";
  require_f32(x, fn, "x");
  const RowDims d{x.rank() == 0 ? 1 : x.rows(), x.rank() == 0 ? 1 : x.row_numel()};
  require_rows_cols(src, d.n, d.f, fn, "src");
  require_rows_cols(out, d.n, d.f, fn, "out");
  require_ids(ids, d.n, fn);
  require_p(p, fn);
  return d;
}

RowDims check_dropout_keyed_csr(const Csr& a, const Tensor& ids, float p, const Tensor& values_out) {
  const char* fn = "dropout_keyed_csr";
  require_f32(a.values, fn, "a.values");
  require_numel(a.values, a.nnz(), fn, "a.values");
  require_f32(values_out, fn, "values_out");
  require_numel(values_out, a.nnz(), fn, "values_out");
  require_ids(ids, a.rows, fn);
  require_p(p, fn);
  return RowDims{a.rows, a.nnz()};
}

SpmmShape check_spmm(const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, bool transposed,
                     const char* fn) {
  SpmmShape s;
  require_f32(x, fn, "x");
  require_f32(out, fn, "out");
  int64_t in_rows = transposed ? a.rows : a.cols, out_rows = transposed ? a.cols : a.rows;
  s.f = x.rank() == 0 ? 1 : x.row_numel();
  require_rows_cols(x, in_rows, s.f, fn, "x");
  require_rows_cols(out, out_rows, s.f, fn, "out");
  if (ev.defined()) {
    s.heads = edge_heads(ev, a.nnz(), fn, "edge_values");
    if (s.f % s.heads != 0)
      throw Error(where(fn, "edge_values") + " has " + std::to_string(s.heads) + " heads, which do not divide F = " +
                  std::to_string(s.f));
  }
  return s;
}

}  // namespace detail

Shape conv2d_output_shape(const Shape& x, const Shape& w, const Conv2dParams& p) {
  if (x.rank() != 4 || w.rank() != 4 || x[1] != w[1])
    throw Error("conv2d: x must be [N,C,H,W] and w [O,C,KH,KW] with the same C; got x " + x.str() + ", w " + w.str());
  if (p.stride_h < 1 || p.stride_w < 1 || p.pad_h < 0 || p.pad_w < 0) throw Error("conv2d: stride must be >= 1, padding >= 0");
  int64_t oh = (x[2] + 2 * p.pad_h - w[2]) / p.stride_h + 1;
  int64_t ow = (x[3] + 2 * p.pad_w - w[3]) / p.stride_w + 1;
  if (x[2] + 2 * p.pad_h < w[2] || x[3] + 2 * p.pad_w < w[3] || oh <= 0 || ow <= 0)
    throw Error("conv2d: kernel " + w.str() + " larger than the padded input " + x.str());
  return Shape{x[0], w[0], oh, ow};
}

Shape pool2d_output_shape(const Shape& x, const Pool2dParams& p) {
  if (x.rank() != 4) throw Error("pool2d: x must be [N,C,H,W], got " + x.str());
  if (p.kernel_h < 1 || p.kernel_w < 1 || p.stride_h < 1 || p.stride_w < 1 || p.pad_h < 0 || p.pad_w < 0 ||
      p.pad_h * 2 > p.kernel_h || p.pad_w * 2 > p.kernel_w)
    throw Error("pool2d: kernel and stride must be >= 1 and padding at most half the kernel");
  int64_t oh = (x[2] + 2 * p.pad_h - p.kernel_h) / p.stride_h + 1;
  int64_t ow = (x[3] + 2 * p.pad_w - p.kernel_w) / p.stride_w + 1;
  if (x[2] + 2 * p.pad_h < p.kernel_h || x[3] + 2 * p.pad_w < p.kernel_w)
    throw Error("pool2d: window larger than the padded input " + x.str());
  return Shape{x[0], x[1], oh, ow};
}

float dropout_uniform(uint64_t seed, uint64_t i) { return detail::uniform_from(seed, i); }

}  // namespace mlsys::kernels
