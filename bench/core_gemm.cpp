// GEMM GFLOP/s of kernels::gemm against cblas_sgemm called directly, same run, same buffers.
//   bench_core_gemm [reps=5]
#include <cblas.h>
#include <omp.h>
#include <stdlib.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/kernels/kernels.hpp"

using namespace mlsys;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
// Best wall time of `reps` runs after a warm-up; g_cpu_share is CPU seconds / (wall * threads) of
// that run, which shows when other processes shared the cores (results are then pessimistic).
double g_cpu_share = 0;
template <class Fn>
double best_of(int reps, Fn&& fn) {
  fn();
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = now(), c0 = cpu_now();
    fn();
    double t = now() - t0;
    if (t < best) best = t, g_cpu_share = (cpu_now() - c0) / (t * omp_get_max_threads());
  }
  return best;
}
}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  DeviceContext& ctx = cpu_context();
  std::printf("bench_core_gemm: threads=%d\n", omp_get_max_threads());
  struct Case {
    int64_t m, n, k;
    bool ta, tb;
  };
  // Square sizes plus the GCN layer shapes (2^20 x 128 times 128 x 128, and the weight gradient).
  const Case cases[] = {{256, 256, 256, false, false},    {1024, 1024, 1024, false, false},
                        {2048, 2048, 2048, false, true},   {1 << 20, 128, 128, false, true},
                        {128, 128, 1 << 20, true, false}};
  for (const Case& c : cases) {
    Tensor a = Tensor::full(c.ta ? Shape{c.k, c.m} : Shape{c.m, c.k}, 0.5f);
    Tensor b = Tensor::full(c.tb ? Shape{c.n, c.k} : Shape{c.k, c.n}, 0.25f);
    Tensor out = Tensor::zeros({c.m, c.n});
    const double flops = 2.0 * static_cast<double>(c.m) * static_cast<double>(c.n) * static_cast<double>(c.k);
    const double t_ours = best_of(reps, [&] { kernels::gemm(ctx, a, c.ta, b, c.tb, out); });
    const double share_ours = g_cpu_share;
    const double t_blas = best_of(reps, [&] {
      cblas_sgemm(CblasRowMajor, c.ta ? CblasTrans : CblasNoTrans, c.tb ? CblasTrans : CblasNoTrans,
                  static_cast<int>(c.m), static_cast<int>(c.n), static_cast<int>(c.k), 1.f, a.data<float>(),
                  static_cast<int>(a.dim(1)), b.data<float>(), static_cast<int>(b.dim(1)), 0.f, out.data<float>(),
                  static_cast<int>(c.n));
    });
    std::printf("  %7lld x %5lld x %7lld %s%s: kernels::gemm %.1f GFLOP/s, cblas_sgemm %.1f GFLOP/s (ratio %.2f; cpu share %.2f / %.2f)\n",
                static_cast<long long>(c.m), static_cast<long long>(c.n), static_cast<long long>(c.k), c.ta ? "T" : "N",
                c.tb ? "T" : "N", flops / t_ours / 1e9, flops / t_blas / 1e9, t_blas / t_ours, share_ours, g_cpu_share);
  }
  return 0;
}
