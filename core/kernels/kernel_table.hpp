#pragma once
// The kernel table a device backend provides to the dispatchers of kernels.hpp: one function
// pointer per kernel of kernels.inc, each typed from the CPU declaration, so a backend that lacks a
// kernel or gets a signature wrong fails to compile where it fills its table:
//
//   kernels::KernelTable t;
//   #define MLSYS_FILL(fn) t.fn = &cuda::fn;
//   MLSYS_KERNEL_NAMES(MLSYS_FILL)
//
// The CPU table is part of the core library; the CUDA table is filled by libmlsys_cuda.so.
#include <string>

#include "core/kernels/cpu/cpu_kernels.hpp"

// Every kernel of kernels.inc, once (the dispatchers in dispatch.cpp and every table use this list).
#define MLSYS_KERNEL_NAMES(X)                                                                                   \
  X(gemm) X(spmm) X(spmm_t) X(sddmm) X(edge_add) X(edge_add_backward) X(edge_softmax) X(edge_softmax_backward) \
  X(gather_rows) X(scatter_add_rows) X(fill) X(add) X(mul) X(scale) X(axpy) X(add_row_vector) X(scale_rows)    \
  X(relu) X(relu_backward) X(leaky_relu) X(leaky_relu_backward) X(elu) X(elu_backward) X(dropout)              \
  X(dropout_backward) X(row_sum) X(row_max) X(col_sum) X(sum_all) X(sum_squares) X(count_correct)              \
  X(log_softmax) X(log_softmax_backward) X(nll_loss) X(cross_entropy) X(cosine_similarity_loss) X(layer_norm)  \
  X(layer_norm_backward) X(conv2d) X(conv2d_backward) X(max_pool2d) X(max_pool2d_backward) X(avg_pool2d)       \
  X(avg_pool2d_backward) X(sgd_step) X(adam_step) X(l2_normalize_rows) X(l2_normalize_rows_backward)           \
  X(dropout_keyed) X(dropout_keyed_csr)

namespace mlsys::kernels {

struct KernelTable {
#define MLSYS_KERNEL_SLOT(fn) decltype(&cpu::fn) fn = nullptr;
  MLSYS_KERNEL_NAMES(MLSYS_KERNEL_SLOT)
#undef MLSYS_KERNEL_SLOT
  // The names of unset slots, comma-separated ("" when the table is complete).
  std::string missing() const;
};

const KernelTable& cpu_kernel_table();

}  // namespace mlsys::kernels
