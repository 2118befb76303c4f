// SpMM (CSR x dense, f32) throughput on the host against the memory-copy bandwidth measured in
// the same run. Effective bandwidth counts the bytes SpMM must move at least once per nonzero
// and row: col index + value per nonzero, one X row (F floats) gathered per nonzero, one output
// row written per row, plus row_ptr.
//   bench_core_spmm [rows=1048576] [nnz=10000000] [F=128] [reps=5]
#include <omp.h>
#include <stdlib.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/process/system.hpp"

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
  fn();  // warm-up
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = now(), c0 = cpu_now();
    fn();
    double t = now() - t0;
    if (t < best) best = t, g_cpu_share = (cpu_now() - c0) / (t * omp_get_max_threads());
  }
  return best;
}

// Parallel copy of a buffer far larger than the caches: read + write bytes per second.
double copy_bandwidth(size_t bytes, int reps) {
  std::vector<char> a(bytes, 1), b(bytes, 0);
  double t = best_of(reps, [&] {
#pragma omp parallel
    {
      const size_t nt = static_cast<size_t>(omp_get_num_threads()), tid = static_cast<size_t>(omp_get_thread_num());
      const size_t lo = bytes * tid / nt, hi = bytes * (tid + 1) / nt;
      std::memcpy(b.data() + lo, a.data() + lo, hi - lo);
    }
  });
  return 2.0 * static_cast<double>(bytes) / t;
}
}  // namespace

int main(int argc, char** argv) {
  const int64_t rows = argc > 1 ? std::atoll(argv[1]) : (1 << 20);
  const int64_t nnz = argc > 2 ? std::atoll(argv[2]) : 10000000;
  const int64_t f = argc > 3 ? std::atoll(argv[3]) : 128;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 5;
  DeviceContext& ctx = cpu_context();
  std::printf("bench_core_spmm: rows=%lld nnz=%lld F=%lld threads=%d\n", static_cast<long long>(rows),
              static_cast<long long>(nnz), static_cast<long long>(f), omp_get_max_threads());
  double load[1] = {0};
  if (getloadavg(load, 1) == 1) std::printf("  load average at start: %.1f\n", load[0]);
  const double copy_bw = copy_bandwidth(size_t{1} << 30, reps);
  std::printf("  memcpy bandwidth (1 GiB, read+write): %.2f GB/s (cpu share %.2f)\n", copy_bw / 1e9, g_cpu_share);
  Tensor x = Tensor::empty({rows, f});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>(i % 17) * 0.1f;
  Tensor out = Tensor::empty({rows, f});
  for (bool rmat : {false, true}) {
    Csr a = Csr::random(rows, rows, nnz, 7, rmat, true);
    const double t = best_of(reps, [&] { kernels::spmm(ctx, a, x, out); });
    const double bytes = static_cast<double>(nnz) * (4 + 4 + 4.0 * static_cast<double>(f)) +
                         static_cast<double>(rows) * (8 + 4.0 * static_cast<double>(f));
    std::printf("  spmm %-7s: %.1f ms, %.2f GFLOP/s, effective %.2f GB/s = %.0f%% of memcpy (cpu share %.2f)\n",
                rmat ? "R-MAT" : "uniform", t * 1e3, 2.0 * static_cast<double>(nnz * f) / t / 1e9, bytes / t / 1e9,
                100.0 * bytes / t / copy_bw, g_cpu_share);
    Csr at = a.with_transpose();
    const double tt = best_of(reps, [&] { kernels::spmm_t(ctx, at, x, out); });
    std::printf("  spmm_t %-7s (cached transpose): %.1f ms, effective %.2f GB/s = %.0f%% of memcpy (cpu share %.2f)\n",
                rmat ? "R-MAT" : "uniform", tt * 1e3, bytes / tt / 1e9, 100.0 * bytes / tt / copy_bw, g_cpu_share);
  }
  std::printf("  peak RSS %.2f GiB\n", static_cast<double>(peak_rss_bytes()) / (1 << 30));
  return 0;
}
