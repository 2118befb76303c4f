#pragma once
// An emulated cuda device for CPU-only machines: a DeviceBackend whose "device memory" is host
// memory it tracks, whose kernels are the CPU kernels and whose codec kernels are the fast CPU
// codecs. Registered for Device::Kind::cuda while an EmulatedDevice object lives, it runs the
// device-generic code paths (device pool, codecs on device buffers, host staging decided by the
// communicator's capability) exactly as a GPU would, and counts the bytes copied between host and
// "device", so a test can check that staging happened where it should and nowhere else.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "core/kernels/kernel_table.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/tensor/device_pool.hpp"

namespace mlsys::test {

class EmulatedBackend final : public DeviceBackend {
 public:
  EmulatedBackend() {
    codecs_.sr_encode = [](const float* x, size_t r, size_t c, int b, quant::MetaPrecision m, int rule, uint64_t s,
                           uint8_t* o, void*) { quant::kernels::sr_encode_fast(x, r, c, b, m, rule, s, o); };
    codecs_.sr_decode = [](const uint8_t* in, size_t r, size_t c, int b, quant::MetaPrecision m, float* o, void*) {
      quant::kernels::sr_decode_fast(in, r, c, b, m, o);
    };
    codecs_.half_encode = [](const float* x, size_t n, bool bf, uint8_t* o, void*) {
      quant::kernels::half_encode_fast(x, n, bf, o);
    };
    codecs_.half_decode = [](const uint8_t* in, size_t n, bool bf, float* o, void*) {
      quant::kernels::half_decode_fast(in, n, bf, o);
    };
    codecs_.copy = [](const void* src, size_t bytes, void* dst, void*) {
      if (bytes) std::memcpy(dst, src, bytes);
    };
    codecs_.rounding_rules = MLSYS_ROUNDING_RULE_NAMES;
  }
  Device::Kind kind() const override { return Device::Kind::cuda; }
  int device_count() const override { return 2; }
  std::string describe() const override { return "2 emulated devices (host memory, CPU kernels)"; }
  DeviceHandles open(int) override { return {}; }
  void close(int, const DeviceHandles&) override {}
  void synchronize(int, void*) override {}
  std::shared_ptr<MemoryPool> make_pool(std::string name, int device, uint64_t limit) override {
    return std::make_shared<DeviceCachingPool>(std::move(name), *this, Device::cuda(device), limit);
  }
  void* allocate(int device, size_t bytes) override {
    void* p = std::malloc(bytes ? bytes : 1);
    std::lock_guard<std::mutex> lock(mu_);
    blocks_[static_cast<char*>(p)] = {bytes, device};
    return p;
  }
  void free(int, void* p) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      blocks_.erase(static_cast<char*>(p));
    }
    std::free(p);
  }
  void copy(void* dst, const void* src, size_t bytes) override {
    const bool d = device_of(dst) >= 0, s = device_of(src) >= 0;
    if (d && !s) host_to_device += bytes;
    if (s && !d) device_to_host += bytes;
    if (bytes) std::memcpy(dst, src, bytes);
  }
  void zero(int, void* p, size_t bytes) override {
    if (bytes) std::memset(p, 0, bytes);
  }
  int device_of(const void* p) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto c = static_cast<const char*>(p);
    auto it = blocks_.upper_bound(const_cast<char*>(c));
    if (it == blocks_.begin()) return -1;
    --it;
    return c < it->first + std::max<size_t>(it->second.bytes, 1) ? it->second.device : -1;
  }
  const kernels::KernelTable& kernels() const override { return kernels::cpu_kernel_table(); }
  const quant::DeviceCodecKernels* codec_kernels() const override { return &codecs_; }
  // The table itself, for a test that stands in a stale plugin's (it restores what it changes).
  quant::DeviceCodecKernels& codec_table() { return codecs_; }
  // The "driver's" figure: every live block on the device plus what `other_use` says others hold.
  uint64_t driver_used_bytes(int device) const override {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t used = other_use.load();
    for (const auto& [p, b] : blocks_)
      if (b.device == device) used += b.bytes;
    return used;
  }

  std::atomic<uint64_t> host_to_device{0}, device_to_host{0};
  std::atomic<uint64_t> other_use{0};  // bytes a library or another process holds on the device

 private:
  struct Block {
    size_t bytes;
    int device;
  };
  mutable std::mutex mu_;
  std::map<char*, Block> blocks_;
  quant::DeviceCodecKernels codecs_;
};

// Serves Device::Kind::cuda while it lives (one at a time; tests run their cases one by one).
class EmulatedDevice {
 public:
  EmulatedDevice() {
    backend().host_to_device = 0;
    backend().device_to_host = 0;
    backend().other_use = 0;
    before_ = register_device_backend(Device::Kind::cuda, &backend());
  }
  ~EmulatedDevice() { register_device_backend(Device::Kind::cuda, before_); }
  EmulatedDevice(const EmulatedDevice&) = delete;
  EmulatedDevice& operator=(const EmulatedDevice&) = delete;
  static EmulatedBackend& backend() {
    static EmulatedBackend* b = new EmulatedBackend();  // contexts made with it may outlive a test
    return *b;
  }

 private:
  DeviceBackend* before_ = nullptr;
};

}  // namespace mlsys::test
