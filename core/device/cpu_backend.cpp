// The host device backend: host memory (the CPU caching pool), no streams, the CPU kernels
// (OpenBLAS + OpenMP). Part of the core library (every build has it); it registers itself when
// libmlsys_core loads, as a plugin's backend does when the plugin loads (core/device/cuda/).
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/kernels/kernel_table.hpp"
#include "core/tensor/cpu_pool.hpp"
#include "core/tensor/device_backend.hpp"

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

// Never destroyed: host tensors may live in statics. Registered during the library's static
// initialization; the registry's lock and table are constant-initialized, so the order of
// initialization between files does not matter.
const bool kRegistered = (register_device_backend(Device::Kind::cpu, new CpuBackend()), true);

}  // namespace

}  // namespace mlsys
