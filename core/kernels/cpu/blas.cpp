// GEMM on the host through OpenBLAS (cblas_sgemm), which threads itself.
#include <cblas.h>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

void gemm(DeviceContext&, const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c, float alpha, float beta) {
  const auto [m, n, k] = check_gemm(a, ta, b, tb, c);
  if (m == 0 || n == 0) return;
  float* cp = c.data<float>();
  if (k == 0) {
    for (int64_t i = 0; i < m * n; ++i) cp[i] = beta == 0.f ? 0.f : beta * cp[i];
    return;
  }
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), alpha, a.data<float>(), static_cast<int>(a.dim(1)),
              b.data<float>(), static_cast<int>(b.dim(1)), beta, cp, static_cast<int>(n));
}

}  // namespace mlsys::kernels::cpu
