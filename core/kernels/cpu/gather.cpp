// Row gather and scatter-add on the host. Scatter-add partitions destination rows among threads
// (each thread scans all indices and handles only its own rows), so it needs no atomics and the
// sum order per row is the input order (deterministic for any thread count).
#include <omp.h>

#include <cstring>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {
template <class Fn>
void with_index(const Tensor& idx, Fn&& fn) {
  if (idx.dtype() == DType::i64) fn(idx.data<int64_t>());
  else fn(idx.data<int32_t>());
}
void check_rows(const Tensor& src, const Tensor& idx, const Tensor& out, int64_t indexed_rows, const char* fn) {
  require_index(idx, fn, "idx");
  require_f32(src, fn, "src");
  require_f32(out, fn, "out");
  if (src.row_numel() != out.row_numel() || src.rank() == 0 || out.rank() == 0)
    throw Error(std::string("kernels::") + fn + ": src " + src.str() + " and out " + out.str() + " rows differ in size");
  if (indexed_rows != idx.numel())
    throw Error(std::string("kernels::") + fn + ": idx has " + std::to_string(idx.numel()) + " entries, expected " +
                std::to_string(indexed_rows));
}
[[noreturn]] void bad_index(const char* fn, int64_t i, int64_t v, int64_t n) {
  throw Error(std::string("kernels::") + fn + ": idx[" + std::to_string(i) + "] = " + std::to_string(v) +
              " outside [0, " + std::to_string(n) + ")");
}
}  // namespace

void gather_rows(DeviceContext&, const Tensor& src, const Tensor& idx, const Tensor& out) {
  check_rows(src, idx, out, out.rows(), "gather_rows");
  const int64_t f = src.row_numel(), n = src.rows(), m = out.rows();
  const float* s = src.data<float>();
  float* o = out.data<float>();
  with_index(idx, [&](const auto* ix) {
    for (int64_t i = 0; i < m; ++i)
      if (ix[i] < 0 || ix[i] >= n) bad_index("gather_rows", i, ix[i], n);
#pragma omp parallel for schedule(static) if (m * f > 32768)
    for (int64_t i = 0; i < m; ++i) std::memcpy(o + i * f, s + static_cast<int64_t>(ix[i]) * f, static_cast<size_t>(f) * 4);
  });
}

void scatter_add_rows(DeviceContext&, const Tensor& src, const Tensor& idx, const Tensor& out) {
  check_rows(src, idx, out, src.rows(), "scatter_add_rows");
  const int64_t f = src.row_numel(), n = out.rows(), m = src.rows();
  const float* s = src.data<float>();
  float* o = out.data<float>();
  with_index(idx, [&](const auto* ix) {
    for (int64_t i = 0; i < m; ++i)
      if (ix[i] < 0 || ix[i] >= n) bad_index("scatter_add_rows", i, ix[i], n);
#pragma omp parallel if (m * f > 32768)
    {
      const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
      const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
      for (int64_t i = 0; i < m; ++i) {
        const int64_t r = ix[i];
        if (r < lo || r >= hi) continue;
        float* orow = o + r * f;
        const float* srow = s + i * f;
        for (int64_t j = 0; j < f; ++j) orow[j] += srow[j];
      }
    }
  });
}

}  // namespace mlsys::kernels::cpu
