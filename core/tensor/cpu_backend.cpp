#include "core/tensor/cpu_backend.hpp"

#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/kernels/kernel_table.hpp"
#include "core/tensor/cpu_pool.hpp"

namespace mlsys {

namespace {

class CpuBackend final : public DeviceBackend {
 public:
  Device::Kind kind() const override { return Device::Kind::cpu; }
  int device_count() const override { return 1; }
  std::string describe() const override {
    return "host memory, OpenBLAS + OpenMP kernels, " + std::to_string(std::thread::hardware_concurrency()) +
           " hardware threads";
  }
  DeviceHandles open(int) override { return {}; }
  void close(int, const DeviceHandles&) override {}
  void synchronize(int, void*) override {}
  std::shared_ptr<MemoryPool> make_pool(std::string name, int, uint64_t limit_bytes) override {
    return std::make_shared<CpuCachingPool>(std::move(name), limit_bytes);
  }
  void* allocate(int, size_t bytes) override {
    const size_t a = CpuCachingPool::kAlignment;
    return std::aligned_alloc(a, (bytes + a - 1) / a * a);
  }
  void free(int, void* p) override { std::free(p); }
  void copy(void* dst, const void* src, size_t bytes) override {
    if (bytes && dst != src) std::memcpy(dst, src, bytes);
  }
  void zero(int, void* p, size_t bytes) override {
    if (bytes) std::memset(p, 0, bytes);
  }
  const kernels::KernelTable& kernels() const override { return kernels::cpu_kernel_table(); }
};

}  // namespace

DeviceBackend& cpu_backend() {
  static CpuBackend* b = new CpuBackend();  // never destroyed: host tensors may live in statics
  return *b;
}

}  // namespace mlsys
