#pragma once
// Compressed sparse row matrix used by the sparse kernels (SpMM, SDDMM, edge softmax) and by gnn/.
// Row r's nonzeros are col[row_ptr[r] .. row_ptr[r+1]); an edge e is its position in col.
//   row_ptr: i64 [rows + 1]; col: i32 or i64 [nnz]; values: f32 [nnz] or undefined (all ones).
//   edge_id: i64 [nnz] or undefined. Set on a transpose: edge_id[e'] is the edge of the original
//            matrix that e' came from, so per-edge arrays of the original can be read in the
//            transposed order without copying.
//   symmetric: the caller asserts A == A^T including values (e.g. GCN's D^-1/2 (A+I) D^-1/2);
//            spmm_t then runs as spmm, without a transpose and without atomics.
// The transpose used by spmm_t is built once with with_transpose() and shared by copies.
// backend_state: what a device backend derives from the matrix once and reuses on every product
//            (the cuda backend: cuSPARSE's descriptor, 32-bit row offsets, an all-ones value
//            array for a matrix without values). Opaque here (the core links no device library);
//            shared by copies that share the arrays, dropped by to(). It is derived from
//            row_ptr and col (values are passed per product), so change a matrix's structure by
//            giving it new arrays, never by writing into row_ptr or col in place.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace mlsys {

// Base of Csr::backend_state; each backend defines its own.
struct CsrBackendState {
  virtual ~CsrBackendState() = default;
};

struct Csr {
  int64_t rows = 0;
  int64_t cols = 0;
  Tensor row_ptr;
  Tensor col;
  Tensor values;
  Tensor edge_id;
  bool symmetric = false;
  std::shared_ptr<const Csr> transposed;  // set by with_transpose()
  // Read and written only by the backend's kernels, under the backend's own lock.
  mutable std::shared_ptr<CsrBackendState> backend_state;

  int64_t nnz() const { return col.numel(); }
  Device device() const { return row_ptr.device(); }
  bool has_values() const { return values.defined(); }

  // Host CSR from COO (src row, dst col) pairs; duplicates are kept, each row's entries keep
  // their input order (stable). values may be empty. col dtype i32 when cols < 2^31 unless
  // force_i64_cols. Throws InputError for an index out of range.
  static Csr from_coo(int64_t rows, int64_t cols, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
                      const std::vector<float>& values = {}, bool force_i64_cols = false);
  // Host CSR from arrays (moved in and adopted without a copy); validates them (validate()).
  static Csr from_arrays(int64_t rows, int64_t cols, std::vector<int64_t> row_ptr, std::vector<int32_t> col,
                         std::vector<float> values = {});

  // Synthetic matrix with `nnz` nonzeros (duplicates possible), deterministic per seed. rmat = true
  // draws R-MAT coordinates (a,b,c,d = 0.57,0.19,0.19,0.05: power-law degrees, as in Graph500),
  // otherwise uniform. values: U(0.5, 1.5) per nonzero, or none. Each row's columns are sorted.
  static Csr random(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool rmat = false, bool values = false);

  // Checks shapes, dtypes, monotone row_ptr and column range (host only). Throws InputError.
  void validate() const;
  // The transpose (host, OpenMP counting sort, stable): values permuted, edge_id set.
  Csr transpose() const;
  // Returns a copy whose `transposed` is filled (computed on the host, moved to this device).
  // edge_ids = false: the transpose keeps its permuted values but not each entry's source edge id
  // (8 of its 16 bytes per nonzero), which only products with explicit per-edge values read (they
  // fall back to the untransposed kernels on such a transpose; a later with_transpose(true)
  // rebuilds it with the ids).
  Csr with_transpose(bool edge_ids = true) const;
  // Copy of every array onto ctx's device (and the cached transpose too).
  Csr to(DeviceContext& ctx) const;
};

}  // namespace mlsys
