// SpMM (out = A X) and SpMM^T (out = A^T X) on a cuda context against device-to-device copy
// bandwidth, on an R-MAT matrix (default 2^20 x 2^20, 31M nonzeros, F = 128: the GCN layer of the
// train-gnn benchmark). Effective bandwidth counts the bytes as bench_gnn_rmat does on the CPU:
// row_ptr + col + values + one X row gathered per nonzero + out (nnz*F*4 dominates).
// Target (issue #17): >= 60% of the copy bandwidth.
// Also checks both kernels against the CPU kernels on a 2^14 matrix (exit 1 on a mismatch).
//   bench_gpu_spmm [scale=20] [nnz=31000000] [F=128] [reps=10]
#include <cmath>
#include <vector>

#include "bench/gpu_common.hpp"
#include "core/kernels/kernels.hpp"
#include "core/tensor/csr.hpp"

using namespace mlsys;
using namespace mlsys::bench;

namespace {

constexpr double kTarget = 0.60;

Tensor features(int64_t rows, int64_t f) {
  std::vector<float> v(static_cast<size_t>(rows * f));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 2654435761u) % 997) / 997.f - 0.5f;
  return Tensor::from_vector(v, Shape{rows, f});
}

double max_diff(const Tensor& a, const Tensor& b) {
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, static_cast<double>(std::fabs(x[i] - y[i])));
  return m;
}

// The CUDA kernels agree with the CPU kernels (up to float summation order) on a small matrix.
bool check_small(DeviceContext& ctx) {
  Csr host = Csr::random(1 << 14, 1 << 14, 200000, 7, true, true).with_transpose();
  Csr dev = host.to(ctx);
  Tensor x = features(host.rows, 32);
  Tensor want = Tensor::zeros({host.rows, 32}), want_t = Tensor::zeros({host.cols, 32});
  kernels::spmm(cpu_context(), host, x, want);
  kernels::spmm_t(cpu_context(), host, x, want_t);
  Tensor xd = x.to(ctx);
  Tensor got = Tensor::zeros({host.rows, 32}, DType::f32, ctx), got_t = Tensor::zeros({host.cols, 32}, DType::f32, ctx);
  kernels::spmm(ctx, dev, xd, got);
  kernels::spmm_t(ctx, dev, xd, got_t);
  ctx.synchronize();
  const double d = max_diff(got, want), dt = max_diff(got_t, want_t);
  std::printf("check vs CPU kernels (2^14, 200k nonzeros, F=32): spmm max |diff| %.3g, spmm_t %.3g\n", d, dt);
  return d < 1e-3 && dt < 1e-3;
}

}  // namespace

int main(int argc, char** argv) {
  const int scale = arg_int(argc, argv, 1, 20);
  const int64_t nnz = argc > 2 ? std::atoll(argv[2]) : 31000000;
  const int64_t f = arg_int(argc, argv, 3, 128);
  const int reps = arg_int(argc, argv, 4, 10);
  auto ctx_owner = cuda_context_or_skip("bench_gpu_spmm");
  DeviceContext& ctx = *ctx_owner;
  if (!check_small(ctx)) {
    std::printf("FAIL: the CUDA SpMM kernels disagree with the CPU kernels\n");
    return 1;
  }
  const int64_t n = int64_t(1) << scale;
  Csr a = Csr::random(n, n, nnz, 1, true, true).with_transpose().to(ctx);
  Tensor x = features(n, f).to(ctx);
  Tensor out = Tensor::zeros({n, f}, DType::f32, ctx);
  const double csr_bytes = static_cast<double>(a.row_ptr.nbytes() + a.col.nbytes() + a.values.nbytes());
  const double dense_bytes = static_cast<double>(a.nnz()) * static_cast<double>(f) * 4.0 + static_cast<double>(x.nbytes());
  const double copy_bw = copy_bandwidth(ctx, x.nbytes(), reps);
  std::printf("R-MAT 2^%d, %lld nonzeros, F=%lld; device copy %.1f GB/s (read + write)\n", scale,
              static_cast<long long>(a.nnz()), static_cast<long long>(f), copy_bw / 1e9);
  result("device_copy_bandwidth", copy_bw / 1e9, "GB/s");
  const double t = best_seconds(stream_of(ctx), reps, [&] { kernels::spmm(ctx, a, x, out); });
  const double t_t = best_seconds(stream_of(ctx), reps, [&] { kernels::spmm_t(ctx, a, x, out); });
  const double bw = (csr_bytes + dense_bytes) / t, bw_t = (csr_bytes + dense_bytes) / t_t;
  std::printf("spmm   %.3f ms, %.1f GB/s effective (%.0f%% of copy)\n", 1e3 * t, bw / 1e9, 100 * bw / copy_bw);
  std::printf("spmm_t %.3f ms, %.1f GB/s effective (%.0f%% of copy)\n", 1e3 * t_t, bw_t / 1e9, 100 * bw_t / copy_bw);
  result("spmm_effective_bandwidth", bw / 1e9, "GB/s", bw / copy_bw, kTarget);
  result("spmm_t_effective_bandwidth", bw_t / 1e9, "GB/s", bw_t / copy_bw, kTarget);
  return 0;
}
