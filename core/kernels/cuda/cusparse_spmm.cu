// cuSPARSE SpMM (see cusparse_spmm.hpp). Summation order: cuSPARSE's kernels sum each output
// row's products in their own order (not the CPU kernels' edge order), so GPU and CPU results
// differ in float rounding; for a fixed matrix and width the order is fixed, so two runs agree.
#include "core/kernels/cuda/cusparse_spmm.hpp"

#include <cusparse.h>

#include <climits>
#include <memory>
#include <mutex>
#include <string>

#include "core/kernels/cuda/cuda_common.cuh"
#include "core/util/error.hpp"

namespace mlsys::kernels::cuda {
namespace {

// CSR_ALG2 is cuSPARSE's algorithm for row-major dense operands (our layout).
constexpr cusparseSpMMAlg_t kAlgorithm = CUSPARSE_SPMM_CSR_ALG2;

void check_sparse(cusparseStatus_t st, const char* what) {
  if (st != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("kernels::spmm: ") + what + " failed: " + cusparseGetErrorString(st));
}

cusparseHandle_t sparse_of(DeviceContext& ctx) { return static_cast<cusparseHandle_t>(ctx.sparse_handle()); }

__global__ void narrow_offsets_kernel(const int64_t* in, int32_t* out, int64_t n) {
  MLSYS_GRID_STRIDE(i, n) out[i] = static_cast<int32_t>(in[i]);
}
__global__ void fill_ones_kernel(float* p, int64_t n) { MLSYS_GRID_STRIDE(i, n) p[i] = 1.f; }

// Guards every Csr::backend_state that these kernels read or replace (a graph may be used by
// several workers' threads).
std::mutex g_state_mu;

class DenseBlock {
 public:
  DenseBlock(int64_t rows, int64_t cols, void* data) {
    check_sparse(cusparseCreateDnMat(&d_, rows, cols, cols, data, CUDA_R_32F, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat");
  }
  ~DenseBlock() { cusparseDestroyDnMat(d_); }
  DenseBlock(const DenseBlock&) = delete;
  DenseBlock& operator=(const DenseBlock&) = delete;
  cusparseDnMatDescr_t get() const { return d_; }

 private:
  cusparseDnMatDescr_t d_ = nullptr;
};

class CusparseCsr final : public CsrBackendState {
 public:
  CusparseCsr(DeviceContext& ctx, const Csr& a)
      : rows_(a.rows), cols_(a.cols), nnz_(a.nnz()), row_ptr_(a.row_ptr.raw()), col_(a.col.raw()) {
    cusparseIndexType_t index = CUSPARSE_INDEX_64I;
    void* offsets = a.row_ptr.raw();
    if (a.col.dtype() == DType::i32) {
      // cuSPARSE takes one index type for offsets and columns: 32-bit offsets (nnz < 2^31) are
      // 4 bytes per row, made once.
      offsets32_ = Tensor::empty({rows_ + 1}, DType::i32, ctx);
      narrow_offsets_kernel<<<blocks_for(rows_ + 1), kThreads, 0, stream_of(ctx)>>>(
          a.row_ptr.data<int64_t>(), offsets32_.data<int32_t>(), rows_ + 1);
      check_launch("spmm (32-bit row offsets)");
      offsets = offsets32_.raw();
      index = CUSPARSE_INDEX_32I;
    }
    if (!a.has_values()) {
      ones_ = Tensor::empty({nnz_}, DType::f32, ctx);
      fill_ones_kernel<<<blocks_for(nnz_), kThreads, 0, stream_of(ctx)>>>(ones_.data<float>(), nnz_);
      check_launch("spmm (unit values)");
    }
    void* values = a.has_values() ? a.values.raw() : ones_.raw();
    check_sparse(cusparseCreateCsr(&desc_, rows_, cols_, nnz_, offsets, a.col.raw(), values, index, index,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "cusparseCreateCsr");
    // Other contexts' streams may use these arrays next: they must be complete first.
    ctx.synchronize();
  }
  ~CusparseCsr() override {
    if (desc_) cusparseDestroySpMat(desc_);
  }
  CusparseCsr(const CusparseCsr&) = delete;
  CusparseCsr& operator=(const CusparseCsr&) = delete;

  bool made_for(const Csr& a) const {
    return a.rows == rows_ && a.cols == cols_ && a.nnz() == nnz_ && a.row_ptr.raw() == row_ptr_ && a.col.raw() == col_ &&
           (a.has_values() || ones_.defined());
  }

  void multiply(DeviceContext& ctx, const float* w, const Tensor& x, const Tensor& out, int64_t f, float beta) {
    const float* values = w ? w : ones_.data<float>();  // made_for: a matrix without values has ones_
    DenseBlock xb(cols_, f, x.raw()), ob(rows_, f, out.raw());
    // beta == 0 must not read `out` (it may hold anything, NaN included): cleared first.
    if (beta == 0.f) cudaMemsetAsync(out.raw(), 0, static_cast<size_t>(rows_ * f) * sizeof(float), stream_of(ctx));
    const float alpha = 1.f;
    cusparseHandle_t h = sparse_of(ctx);
    // The descriptor is shared: pointing it at this call's values and enqueueing the product
    // happen under one lock (the kernel's arguments are fixed when it is enqueued).
    std::lock_guard<std::mutex> lock(mu_);
    check_sparse(cusparseSpMatSetValues(desc_, const_cast<float*>(values)), "cusparseSpMatSetValues");
    size_t bytes = 0;
    check_sparse(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                         desc_, xb.get(), &beta, ob.get(), CUDA_R_32F, kAlgorithm, &bytes),
                 "cusparseSpMM_bufferSize");
    // From the context's pool on its stream: a cached block after the first product of this size.
    DeviceContext::Scratch workspace(ctx, bytes);
    check_sparse(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, desc_,
                              xb.get(), &beta, ob.get(), CUDA_R_32F, kAlgorithm, workspace.get()),
                 "cusparseSpMM");
  }

 private:
  int64_t rows_, cols_, nnz_;
  const void* row_ptr_;  // the arrays this state was made for
  const void* col_;
  Tensor offsets32_;
  Tensor ones_;
  cusparseSpMatDescr_t desc_ = nullptr;
  std::mutex mu_;
};

std::shared_ptr<CusparseCsr> state_for(DeviceContext& ctx, const Csr& a) {
  std::lock_guard<std::mutex> lock(g_state_mu);
  auto st = std::dynamic_pointer_cast<CusparseCsr>(a.backend_state);
  if (!st || !st->made_for(a)) {
    st = std::make_shared<CusparseCsr>(ctx, a);
    a.backend_state = st;
  }
  return st;
}

}  // namespace

bool spmm_cusparse(DeviceContext& ctx, const Csr& a, const float* w, const Tensor& x, const Tensor& out, int64_t f,
                   float beta) {
  if (a.rows == 0 || a.cols == 0 || a.nnz() == 0 || f == 0) return false;
  if (a.col.dtype() == DType::i32 && a.nnz() > INT32_MAX) return false;
  if (!w && a.has_values()) w = a.values.data<float>();
  state_for(ctx, a)->multiply(ctx, w, x, out, f, beta);
  return true;
}

}  // namespace mlsys::kernels::cuda
