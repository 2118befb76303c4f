#pragma once
// Shared by the GPU benchmarks (bench/gpu_*.cpp, run by scripts/gpu_check.sh): CUDA-event timing on
// the stream of an mlsys cuda context, the device-to-device copy bandwidth every result is compared
// with, and the one output line per measurement that gpu_check.sh collects into report.md:
//   RESULT <name> <value> <unit> [ratio <r>] [target <t>] [pass|FAIL]
// These programs call the CUDA runtime (and cuBLAS) directly, on purpose: they are the reference the
// plugin is measured against. They are built only with CUDA and never linked into mlsys.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/tensor/device_context.hpp"

namespace mlsys::bench {

inline void check_cuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

inline cudaStream_t stream_of(const DeviceContext& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

// Best time in seconds of `reps` runs of fn (after one warm-up), measured with CUDA events on `s`.
template <class Fn>
double best_seconds(cudaStream_t s, int reps, Fn&& fn) {
  fn();
  check_cuda(cudaStreamSynchronize(s), "warm-up");
  cudaEvent_t a, b;
  check_cuda(cudaEventCreate(&a), "cudaEventCreate");
  check_cuda(cudaEventCreate(&b), "cudaEventCreate");
  float best_ms = 1e30f;
  for (int i = 0; i < reps; ++i) {
    check_cuda(cudaEventRecord(a, s), "cudaEventRecord");
    fn();
    check_cuda(cudaEventRecord(b, s), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return 1e-3 * best_ms;
}

// Device-to-device copy bandwidth in bytes/s (bytes read + bytes written) over `bytes`-sized buffers.
inline double copy_bandwidth(DeviceContext& ctx, size_t bytes, int reps) {
  DeviceContext::Scratch src(ctx, bytes), dst(ctx, bytes);
  check_cuda(cudaMemsetAsync(src.get(), 1, bytes, stream_of(ctx)), "cudaMemsetAsync");
  double t = best_seconds(stream_of(ctx), reps, [&] {
    check_cuda(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream_of(ctx)),
               "cudaMemcpyAsync");
  });
  return 2.0 * static_cast<double>(bytes) / t;
}

// One result line; `target` > 0 adds the target ratio and pass/FAIL (a miss is reported, not an error).
inline void result(const std::string& name, double value, const char* unit, double ratio = -1, double target = -1) {
  std::printf("RESULT %s %.4g %s", name.c_str(), value, unit);
  if (ratio >= 0) std::printf(" ratio %.3f", ratio);
  if (target > 0) std::printf(" target %.2f %s", target, ratio >= target ? "pass" : "FAIL");
  std::printf("\n");
  std::fflush(stdout);
}

// The cuda context the benchmark runs on; without a usable GPU, prints why and exits 77 (skipped),
// so `make bench` on a CPU machine lists the GPU benchmarks as skipped instead of crashing.
inline std::unique_ptr<DeviceContext> cuda_context_or_skip(const char* program) {
  BackendStatus s = device_backend_status(Device::Kind::cuda);
  if (!s.available) {
    std::printf("%s: skipped, the cuda backend is unavailable: %s\n", program, s.detail.c_str());
    std::exit(77);
  }
  auto ctx = std::make_unique<DeviceContext>(Device::cuda(0));
  std::printf("%s: %s\n", program, ctx->backend().describe().c_str());
  return ctx;
}

inline int arg_int(int argc, char** argv, int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; }

}  // namespace mlsys::bench
