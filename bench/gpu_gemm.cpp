// GEMM GFLOP/s of kernels::gemm on a cuda context (the libmlsys_cuda.so plugin) against cublasSgemm
// called directly on the same stream and buffers, plus a check that both give the same product.
//   bench_gpu_gemm [reps=10]
// Exit 1 when the results differ or a CUDA call fails.
#include <cublas_v2.h>

#include <cmath>
#include <vector>

#include "bench/gpu_common.hpp"
#include "core/kernels/kernels.hpp"

using namespace mlsys;
using namespace mlsys::bench;

namespace {

// Row-major C = op(A) op(B) through column-major cuBLAS: C^T = op(B)^T op(A)^T.
void cublas_gemm(cublasHandle_t h, const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c) {
  const float alpha = 1.f, beta = 0.f;
  const int m = static_cast<int>(c.dim(0)), n = static_cast<int>(c.dim(1));
  const int k = static_cast<int>(ta ? a.dim(0) : a.dim(1));
  cublasStatus_t st = cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha,
                                  b.data<float>(), static_cast<int>(b.dim(1)), a.data<float>(),
                                  static_cast<int>(a.dim(1)), &beta, c.data<float>(), n);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasSgemm failed (status %d)\n", static_cast<int>(st));
    std::exit(1);
  }
}

Tensor random_on(DeviceContext& ctx, const Shape& shape, unsigned seed) {
  std::vector<float> v(static_cast<size_t>(shape.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 2654435761u + seed) % 1000) / 1000.f - 0.5f;
  return Tensor::from_vector(v, shape).to(ctx);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = arg_int(argc, argv, 1, 10);
  auto ctx_owner = cuda_context_or_skip("bench_gpu_gemm");
  DeviceContext& ctx = *ctx_owner;
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  cublasSetStream(h, stream_of(ctx));
  struct Case {
    int64_t m, n, k;
    bool ta, tb;
  };
  // Square sizes plus the GCN layer shapes (2^20 x 128 times 128 x 128, and the weight gradient).
  const Case cases[] = {{1024, 1024, 1024, false, false},
                        {4096, 4096, 4096, false, true},
                        {1 << 20, 128, 128, false, true},
                        {128, 128, 1 << 20, true, false}};
  int failures = 0;
  double worst_ratio = 1e30;
  for (const Case& c : cases) {
    Tensor a = random_on(ctx, c.ta ? Shape{c.k, c.m} : Shape{c.m, c.k}, 1);
    Tensor b = random_on(ctx, c.tb ? Shape{c.n, c.k} : Shape{c.k, c.n}, 2);
    Tensor ours = Tensor::zeros({c.m, c.n}, DType::f32, ctx), ref = Tensor::zeros({c.m, c.n}, DType::f32, ctx);
    const double flops = 2.0 * static_cast<double>(c.m) * static_cast<double>(c.n) * static_cast<double>(c.k);
    double t_ours = best_seconds(stream_of(ctx), reps, [&] { kernels::gemm(ctx, a, c.ta, b, c.tb, ours); });
    double t_ref = best_seconds(stream_of(ctx), reps, [&] { cublas_gemm(h, a, c.ta, b, c.tb, ref); });
    ctx.synchronize();
    std::vector<float> x = ours.to_vector<float>(), y = ref.to_vector<float>();
    double max_err = 0, max_ref = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      max_err = std::max(max_err, static_cast<double>(std::fabs(x[i] - y[i])));
      max_ref = std::max(max_ref, static_cast<double>(std::fabs(y[i])));
    }
    const bool ok = max_err <= 1e-3 * std::max(1.0, max_ref);
    failures += ok ? 0 : 1;
    char name[96];
    std::snprintf(name, sizeof name, "gemm_%lldx%lldx%lld_%s%s", static_cast<long long>(c.m),
                  static_cast<long long>(c.n), static_cast<long long>(c.k), c.ta ? "T" : "N", c.tb ? "T" : "N");
    std::printf("  %s: kernels::gemm %.1f GFLOP/s, cublasSgemm %.1f GFLOP/s, max |diff| %.3g (%s)\n", name,
                flops / t_ours / 1e9, flops / t_ref / 1e9, max_err, ok ? "same product" : "DIFFERENT PRODUCT");
    result(name, flops / t_ours / 1e9, "GFLOP/s", t_ref / t_ours);
    worst_ratio = std::min(worst_ratio, t_ref / t_ours);
  }
  cublasDestroy(h);
  std::printf("worst ratio to cuBLAS: %.3f\n", worst_ratio);
  return failures ? 1 : 0;
}
