#pragma once
// SpMM through cuSPARSE's generic API: CSR with row-major dense operands and A never transposed
// (spmm_t passes the stored transpose, or A itself when symmetric), because cuSPARSE documents
// bit-wise reproducible results only without a transposed A. What cuSPARSE needs beyond the
// matrix's arrays (its descriptor, 32-bit row offsets for 32-bit columns, an all-ones value array
// for a matrix without values) is made on the first product and kept in Csr::backend_state, so
// later products only point the descriptor at this call's values and dense blocks.
#include <cstdint>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::kernels::cuda {

// out [a.rows, f] = beta * out + A x with x [a.cols, f]; A's value of edge e is w[e] (w: a.values,
// per-edge values of one head, or nullptr for all ones). Returns false, having done nothing, when
// cuSPARSE cannot take the product as given (no nonzeros or rows, 32-bit columns with 2^31 or more
// nonzeros): the caller runs its own kernel then.
bool spmm_cusparse(DeviceContext& ctx, const Csr& a, const float* w, const Tensor& x, const Tensor& out, int64_t f,
                   float beta);

}  // namespace mlsys::kernels::cuda
