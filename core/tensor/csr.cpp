#include "core/tensor/csr.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "core/tensor/device_context.hpp"
#include "core/util/random.hpp"

namespace mlsys {

Csr Csr::from_coo(int64_t rows, int64_t cols, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
                  const std::vector<float>& values, bool force_i64_cols) {
  if (src.size() != dst.size()) throw InputError("Csr::from_coo: src and dst lengths differ");
  if (!values.empty() && values.size() != src.size()) throw InputError("Csr::from_coo: values length differs from src");
  const int64_t nnz = static_cast<int64_t>(src.size());
  Csr m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr = Tensor::zeros({rows + 1}, DType::i64);
  int64_t* rp = m.row_ptr.data<int64_t>();
  for (int64_t e = 0; e < nnz; ++e) {
    int64_t r = src[static_cast<size_t>(e)], c = dst[static_cast<size_t>(e)];
    if (r < 0 || r >= rows || c < 0 || c >= cols)
      throw InputError("Csr::from_coo: edge " + std::to_string(e) + " (" + std::to_string(r) + ", " +
                       std::to_string(c) + ") outside a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    ++rp[r + 1];
  }
  for (int64_t r = 0; r < rows; ++r) rp[r + 1] += rp[r];
  bool wide = force_i64_cols || cols > INT32_MAX;
  m.col = Tensor::empty({nnz}, wide ? DType::i64 : DType::i32);
  if (!values.empty()) m.values = Tensor::empty({nnz}, DType::f32);
  std::vector<int64_t> next(rp, rp + rows);
  for (int64_t e = 0; e < nnz; ++e) {
    size_t ue = static_cast<size_t>(e);
    int64_t pos = next[static_cast<size_t>(src[ue])]++;
    if (wide) m.col.data<int64_t>()[pos] = dst[ue];
    else m.col.data<int32_t>()[pos] = static_cast<int32_t>(dst[ue]);
    if (!values.empty()) m.values.data<float>()[pos] = values[ue];
  }
  return m;
}

Csr Csr::from_arrays(int64_t rows, int64_t cols, std::vector<int64_t> row_ptr, std::vector<int32_t> col,
                     std::vector<float> values) {
  Csr m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr = Tensor::from_vector(std::move(row_ptr));
  m.col = Tensor::from_vector(std::move(col));
  if (!values.empty()) m.values = Tensor::from_vector(std::move(values));
  m.validate();
  return m;
}

Csr Csr::random(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool rmat, bool values) {
  if (rows < 0 || cols < 0 || nnz < 0 || (nnz > 0 && (rows == 0 || cols == 0)))
    throw Error("Csr::random: need rows, cols > 0 for nnz > 0");
  std::vector<int64_t> src(static_cast<size_t>(nnz)), dst(static_cast<size_t>(nnz));
  Rng rng(seed);
  if (!rmat) {
    for (int64_t e = 0; e < nnz; ++e) {
      src[static_cast<size_t>(e)] = static_cast<int64_t>(rng.below(static_cast<uint64_t>(rows)));
      dst[static_cast<size_t>(e)] = static_cast<int64_t>(rng.below(static_cast<uint64_t>(cols)));
    }
  } else {
    int levels = 0;
    while ((int64_t{1} << levels) < std::max(rows, cols)) ++levels;
    for (int64_t e = 0; e < nnz;) {
      int64_t r = 0, c = 0;
      for (int l = 0; l < levels; ++l) {
        double x = rng.uniform();
        int qr = x >= 0.76, qc = (x >= 0.57 && x < 0.76) || x >= 0.95;
        r = (r << 1) | qr;
        c = (c << 1) | qc;
      }
      if (r >= rows || c >= cols) continue;  // outside a non-power-of-two matrix: redraw
      src[static_cast<size_t>(e)] = r, dst[static_cast<size_t>(e)] = c;
      ++e;
    }
  }
  std::vector<float> vals;
  if (values) {
    vals.resize(static_cast<size_t>(nnz));
    for (auto& v : vals) v = 0.5f + rng.uniformf();
  }
  Csr m = from_coo(rows, cols, src, dst, vals);
  // Sort each row by column (better locality in SpMM, as real graph files are).
  const int64_t* rp = m.row_ptr.data<int64_t>();
  auto sort_rows = [&](auto* col) {
    float* v = m.values.defined() ? m.values.data<float>() : nullptr;
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t b = rp[r], n = rp[r + 1] - b;
      if (!v) {
        std::sort(col + b, col + b + n);
        continue;
      }
      std::vector<std::pair<int64_t, float>> tmp(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) tmp[static_cast<size_t>(i)] = {col[b + i], v[b + i]};
      std::sort(tmp.begin(), tmp.end());
      for (int64_t i = 0; i < n; ++i) col[b + i] = static_cast<std::remove_pointer_t<decltype(col)>>(tmp[static_cast<size_t>(i)].first), v[b + i] = tmp[static_cast<size_t>(i)].second;
    }
  };
  if (m.col.dtype() == DType::i64) sort_rows(m.col.data<int64_t>());
  else sort_rows(m.col.data<int32_t>());
  return m;
}

template <class I>
static void validate_cols(const I* c, int64_t nnz, int64_t cols) {
  for (int64_t e = 0; e < nnz; ++e)
    if (c[e] < 0 || c[e] >= cols)
      throw InputError("CSR column index " + std::to_string(c[e]) + " at nonzero " + std::to_string(e) +
                       " outside [0, " + std::to_string(cols) + ")");
}

void Csr::validate() const {
  if (!row_ptr.defined() || row_ptr.dtype() != DType::i64 || row_ptr.numel() != rows + 1)
    throw InputError("CSR row_ptr must be i64 with rows + 1 = " + std::to_string(rows + 1) + " entries");
  if (!col.defined() && rows > 0 && row_ptr.to_vector<int64_t>().back() != 0) throw InputError("CSR col missing");
  if (col.defined() && col.dtype() != DType::i32 && col.dtype() != DType::i64) throw InputError("CSR col must be i32 or i64");
  if (values.defined() && (values.dtype() != DType::f32 || values.numel() != nnz()))
    throw InputError("CSR values must be f32 with one entry per nonzero");
  if (!device().is_cpu()) return;
  const int64_t* rp = row_ptr.data<int64_t>();
  if (rp[0] != 0 || rp[rows] != nnz()) throw InputError("CSR row_ptr must start at 0 and end at nnz");
  for (int64_t r = 0; r < rows; ++r)
    if (rp[r + 1] < rp[r]) throw InputError("CSR row_ptr decreases at row " + std::to_string(r));
  if (col.dtype() == DType::i32) validate_cols(col.data<int32_t>(), nnz(), cols);
  else if (col.defined()) validate_cols(col.data<int64_t>(), nnz(), cols);
}

template <class I>
static void transpose_impl(const Csr& a, Csr& t) {
  const int64_t* rp = a.row_ptr.data<int64_t>();
  const I* c = a.col.data<I>();
  const float* v = a.values.defined() ? a.values.data<float>() : nullptr;
  const int64_t* eid = a.edge_id.defined() ? a.edge_id.data<int64_t>() : nullptr;
  int64_t* trp = t.row_ptr.data<int64_t>();
  I* tc = t.col.data<I>();
  float* tv = v ? t.values.data<float>() : nullptr;
  int64_t* te = t.edge_id.data<int64_t>();
  const int64_t nnz = a.nnz();
  for (int64_t e = 0; e < nnz; ++e) ++trp[static_cast<int64_t>(c[e]) + 1];
  for (int64_t r = 0; r < t.rows; ++r) trp[r + 1] += trp[r];
  std::vector<int64_t> next(trp, trp + t.rows);
  // Sequential fill keeps each transposed row sorted by source row (deterministic).
  for (int64_t r = 0; r < a.rows; ++r) {
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e) {
      int64_t pos = next[static_cast<size_t>(c[e])]++;
      tc[pos] = static_cast<I>(r);
      if (tv) tv[pos] = v[e];
      te[pos] = eid ? eid[e] : e;
    }
  }
}

Csr Csr::transpose() const {
  if (!device().is_cpu()) throw Error("Csr::transpose runs on the host; build it before moving the matrix to a GPU");
  Csr t;
  t.rows = cols;
  t.cols = rows;
  t.symmetric = symmetric;
  t.row_ptr = Tensor::zeros({cols + 1}, DType::i64);
  bool wide = col.dtype() == DType::i64 || rows > INT32_MAX;
  t.col = Tensor::empty({nnz()}, wide ? DType::i64 : DType::i32);
  if (values.defined()) t.values = Tensor::empty({nnz()}, DType::f32);
  t.edge_id = Tensor::empty({nnz()}, DType::i64);
  if (col.dtype() == DType::i64 || wide) {
    Csr a = *this;
    if (col.dtype() != DType::i64) a.col = col.to_dtype(DType::i64);
    transpose_impl<int64_t>(a, t);
  } else {
    transpose_impl<int32_t>(*this, t);
  }
  return t;
}

Csr Csr::with_transpose(bool edge_ids) const {
  Csr m = *this;
  if (symmetric || (transposed && (!edge_ids || transposed->edge_id.defined()))) return m;
  Csr t = device().is_cpu() ? transpose() : to(cpu_context()).transpose();
  if (!edge_ids) t.edge_id = Tensor();
  m.transposed = std::make_shared<const Csr>(device().is_cpu() ? std::move(t) : t.to(default_context(device())));
  return m;
}

Csr Csr::to(DeviceContext& ctx) const {
  Csr m = *this;
  m.row_ptr = row_ptr.to(ctx);
  m.col = col.to(ctx);
  m.values = values.to(ctx);
  m.edge_id = edge_id.to(ctx);
  m.backend_state = nullptr;  // derived from the arrays this copy no longer uses
  if (transposed) m.transposed = std::make_shared<const Csr>(transposed->to(ctx));
  return m;
}

}  // namespace mlsys
