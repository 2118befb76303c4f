#pragma once
// Write a test body once, run it on every backend present:
//
//   BACKEND_TEST("spmm matches the reference") { ... uses `ctx` (a DeviceContext&) ... }
//
// registers "<name> [cpu]" (always) and "<name> [cuda]" (runs when the cuda backend is available:
// libmlsys_cuda.so, a driver and a GPU; otherwise it is reported as skipped with the reason).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "core/util/random.hpp"
#include "tests/common/skip.hpp"

namespace mlsys::test {

inline bool cuda_present() { return cuda_device_count() > 0; }
// Why the cuda backend cannot run here ("" when it can).
inline std::string cuda_missing() {
  BackendStatus s = device_backend_status(Device::Kind::cuda);
  return s.available ? std::string() : s.detail;
}

// Host f32 tensor with U(lo, hi) entries, deterministic per seed.
inline Tensor rand_tensor(const Shape& s, uint64_t seed, float lo = -1.f, float hi = 1.f) {
  Tensor t = Tensor::empty(s, DType::f32);
  mlsys::Rng rng(seed);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = lo + (hi - lo) * rng.uniformf();
  return t;
}

inline std::vector<float> host(const Tensor& t) { return t.to_vector<float>(); }

// Element-wise |a - b| <= atol + rtol * |b|, reporting the first mismatch.
inline void check_close(const std::vector<float>& a, const std::vector<float>& b, float atol = 1e-4f,
                        float rtol = 1e-4f) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(std::fabs(a[i] - b[i]) <= atol + rtol * std::fabs(b[i]))) {
      INFO("element " << i << ": got " << a[i] << ", expected " << b[i]);
      CHECK(std::fabs(a[i] - b[i]) <= atol + rtol * std::fabs(b[i]));
      return;
    }
  }
}

}  // namespace mlsys::test

#define MLSYS_BT_CAT2(a, b) a##b
#define MLSYS_BT_CAT(a, b) MLSYS_BT_CAT2(a, b)
#define MLSYS_BACKEND_TEST_IMPL(name, fn)                                 \
  static void fn(::mlsys::DeviceContext& ctx);                            \
  TEST_CASE(name " [cpu]") {                                              \
    ::mlsys::DeviceContext ctx(::mlsys::Device::cpu());                   \
    fn(ctx);                                                              \
  }                                                                       \
  TEST_CASE(name " [cuda]") {                                             \
    if (std::string why = ::mlsys::test::cuda_missing(); !why.empty())    \
      MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why);          \
    ::mlsys::DeviceContext ctx(::mlsys::Device::cuda(0));                 \
    fn(ctx);                                                              \
  }                                                                       \
  static void fn([[maybe_unused]] ::mlsys::DeviceContext& ctx)
#define BACKEND_TEST(name) MLSYS_BACKEND_TEST_IMPL(name, MLSYS_BT_CAT(backend_test_body_, __LINE__))
