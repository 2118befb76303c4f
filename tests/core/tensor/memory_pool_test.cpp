#include <doctest/doctest.h>

#include "core/process/system.hpp"
#include "core/tensor/cpu_pool.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "tests/core/kernels/backend_test.hpp"
#include "tests/core/tensor/emulated_device.hpp"

using namespace mlsys;

BACKEND_TEST("pools reuse freed blocks and account peak, cached and hit rate") {
  DeviceContext own(ctx.device(), 0, "pool-test");
  MemoryPool& pool = own.pool();
  void* a = pool.allocate(1000, own.stream());
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  PoolStats s = pool.stats();
  CHECK(s.in_use_bytes >= 1000);
  CHECK(s.hits == 0);
  const uint64_t one = s.in_use_bytes;
  void* b = pool.allocate(3000, own.stream());
  const uint64_t peak = pool.stats().in_use_bytes;
  pool.deallocate(a, 1000, own.stream());
  pool.deallocate(b, 3000, own.stream());
  s = pool.stats();
  CHECK(s.in_use_bytes == 0);
  CHECK(s.peak_bytes == peak);
  CHECK(s.cached_bytes == peak);
  void* c = pool.allocate(990, own.stream());  // same size class as 1000: reused
  CHECK(c == a);
  s = pool.stats();
  CHECK(s.hits == 1);
  CHECK(s.allocations == 3);
  CHECK(s.hit_rate() == doctest::Approx(1.0 / 3));
  CHECK(s.in_use_bytes == one);
  pool.deallocate(c, 990, own.stream());
  pool.release_cached();
  CHECK(pool.stats().cached_bytes == 0);
  CHECK(pool.allocate(0, own.stream()) == nullptr);
  {
    Tensor t = Tensor::empty({100, 10}, DType::f32, own);
    CHECK(pool.stats().in_use_bytes >= 4000);
  }
  CHECK(pool.stats().in_use_bytes == 0);  // returned when the last handle died
}

BACKEND_TEST("a pool limit gives a clear out-of-memory error and frees the cache first") {
  DeviceContext own(ctx.device(), 1 << 20, "limited");
  MemoryPool& pool = own.pool();
  void* a = pool.allocate(600 << 10, own.stream());
  pool.deallocate(a, 600 << 10, own.stream());  // cached
  void* b = pool.allocate(900 << 10, own.stream());  // fits after releasing the cache
  CHECK(pool.stats().cached_bytes == 0);
  const uint64_t in_use = pool.stats().in_use_bytes;
  std::string expected = "out of memory in pool limited: asked 307200, limit 1048576, in use " + std::to_string(in_use);
  CHECK_THROWS_WITH_AS(pool.allocate(300 << 10, own.stream()), doctest::Contains(expected.c_str()), Error);
  CHECK_THROWS_WITH_AS(Tensor::empty({1 << 20}, DType::f32, own), doctest::Contains("out of memory in pool limited"), Error);
  pool.deallocate(b, 900 << 10, own.stream());
}

TEST_CASE("pool statistics appear in the memory report, also after the context is gone") {
  {
    DeviceContext ctx(Device::cpu(), 0, "report-test");
    Tensor t = Tensor::zeros({1000}, DType::f32, ctx);
    Json r = memory_report();
    const Json* pools = r.find("pools");
    REQUIRE(pools != nullptr);
    const Json* mine = pools->find("report-test");
    REQUIRE(mine != nullptr);
    CHECK(mine->find("in_use_bytes")->as_int() >= 4000);
    CHECK(mine->find("hit_rate") != nullptr);
    CHECK(mine->find("peak_bytes") != nullptr);
    // a second live context with the same name gets a distinct one
    DeviceContext twin(Device::cpu(), 0, "report-test");
    CHECK(twin.pool().name() == "report-test#2");
  }
  Json r = memory_report();
  const Json* snap = r.find("pools")->find("report-test");
  REQUIRE(snap != nullptr);  // final statistics: peak kept, nothing in use
  CHECK_FALSE(snap->find("live")->as_bool());
  CHECK(snap->find("peak_bytes")->as_int() >= 4000);
  CHECK(snap->find("in_use_bytes")->as_int() == 0);
  {
    DeviceContext again(Device::cpu(), 0, "report-test");  // a live context replaces the snapshot
    CHECK(memory_report().find("pools")->find("report-test")->find("live")->as_bool());
  }
}

TEST_CASE("device contexts from the device: config section") {
  DeviceOptions o;
  o.host_pool_limit_mb = 1;
  auto ctx = DeviceContext::from_options(o);
  CHECK(ctx->device().is_cpu());
  CHECK(ctx->pool().stats().limit_bytes == 1 << 20);
  o.type = "cuda";
  BackendStatus s = device_backend_status(Device::Kind::cuda);
  if (!s.available) {
    CHECK_THROWS_WITH_AS(DeviceContext::from_options(o), doctest::Contains(("unavailable: " + s.detail).c_str()), ConfigError);
  } else {
    auto gpu = DeviceContext::from_options(o);
    CHECK(gpu->device() == Device::cuda(0));
  }
}

TEST_CASE("host pool: blocks from 256 KiB to 2 MiB take power-of-two classes, so differently sized tensors reuse them") {
  CpuCachingPool pool("pow2-test");
  // A layer's temporaries of 1.17, 1.55 and 1.78 MB (coauthor_cs on 4 workers) all take the 2 MiB
  // class: freed, each serves the next (with 4 classes per power of two they held three blocks).
  // Frees a block of `first` bytes, then asks for `second`: whether that reused it.
  auto reuses = [&](size_t first, size_t second) {
    void* a = pool.allocate(first);
    pool.deallocate(a, first);
    void* b = pool.allocate(second);
    pool.deallocate(b, second);
    return b == a;
  };
  CHECK(reuses(1'780'000, 1'170'000));
  CHECK(reuses(1'170'000, 1'550'000));
  CHECK(pool.stats().system_allocations == 1);
  void* c = pool.allocate(1'550'000);
  CHECK(pool.stats().in_use_bytes == (size_t{2} << 20));
  pool.deallocate(c, 1'550'000);
  // Below 256 KiB the finer classes stay (4 per power of two): 100 and 70 KB are two classes.
  CHECK(!reuses(100'000, 70'000));
  CHECK(pool.stats().system_allocations == 3);
  // Above 2 MiB no power-of-two rounding: a 2.2 MB block would become 4 MiB, a huge-page block
  // that is resident whole. 2.2 and 2.9 MB are two classes.
  CHECK(!reuses(2'200'000, 2'900'000));
  CHECK(pool.stats().system_allocations == 5);
}

TEST_CASE("device memory in the record: each device's pool peak and the driver's figure at its highest") {
  test::EmulatedDevice emulated;
  {
    DeviceContext ctx(Device::cuda(1), 0, "device-report-test");
    emulated.backend().other_use = 3 << 20;  // e.g. a library's workspace beside our pool
    Tensor a = Tensor::zeros({1 << 18}, DType::f32, ctx);  // 1 MiB
    {
      Tensor b = Tensor::zeros({1 << 19}, DType::f32, ctx);  // 2 MiB more at the peak
    }
    Json r = memory_report();
    const Json* pool = r.find("pools")->find("device-report-test");
    REQUIRE(pool != nullptr);
    CHECK(pool->find("device")->as_string() == "cuda:1");
    const uint64_t peak = pool->find("peak_bytes")->as_uint();
    CHECK(peak >= (3u << 20));
    // The driver saw our blocks (cached ones included) and the 3 MiB of others at the last growth.
    CHECK(pool->find("driver_used_peak_bytes")->as_uint() >= peak + (3u << 20));
    const Json* dev = r.find("devices")->find("cuda:1");
    REQUIRE(dev != nullptr);
    // Other tests' finished cuda:1 contexts count too (their final statistics stay in the report).
    CHECK(dev->find("pool_peak_bytes")->as_uint() >= peak);
    CHECK(dev->find("driver_used_peak_bytes")->as_uint() >= pool->find("driver_used_peak_bytes")->as_uint());
  }
  // The context is gone: its final statistics still count for its device.
  const Json after = memory_report();
  const Json* dev = after.find("devices")->find("cuda:1");
  REQUIRE(dev != nullptr);
  CHECK(dev->find("pool_peak_bytes")->as_uint() >= (3u << 20));
}

TEST_CASE("a host-only run's memory record has no devices section") {
  DeviceContext ctx(Device::cpu(), 0, "host-only-report-test");
  Tensor t = Tensor::zeros({1000}, DType::f32, ctx);
  const Json report = memory_report();
  const Json* pool = report.find("pools")->find("host-only-report-test");
  REQUIRE(pool != nullptr);
  CHECK(pool->find("device") == nullptr);
  CHECK(pool->find("driver_used_peak_bytes") == nullptr);
}
