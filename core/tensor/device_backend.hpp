#pragma once
// The device dispatch layer's one interface. Every DeviceContext calls through the DeviceBackend of
// its device kind: memory, streams, library handles, the kernel table (core/kernels) and the codec
// kernels (core/quant). The host backend is part of the core library; the CUDA backend lives in
// the plugin libmlsys_cuda.so (core/tensor/cuda, core/kernels/cuda, core/quant/cuda), loaded with
// dlopen the first time a cuda device is asked for (plugin.hpp), so neither the mlsys binary nor
// libmlsys_core.so links a CUDA library and a CPU-only machine runs the same binary.
//
//   DeviceBackend& b = device_backend(Device::Kind::cuda);   // ConfigError with the reason when unavailable
//   BackendStatus s = device_backend_status(Device::Kind::cuda);  // never throws; what `mlsys version` lists
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/tensor/device.hpp"

namespace mlsys {

class MemoryPool;
namespace kernels {
struct KernelTable;
}
namespace quant {
struct DeviceCodecKernels;
}

// Whether a backend can be used in this process, and why not. `detail` is what the user reads:
// for an available backend what it found ("1 device: NVIDIA H200 ..."), else the reason
// ("no NVIDIA driver (libcuda.so.1 not found)", "library missing: ...", "driver too old: ...").
struct BackendStatus {
  bool available = false;
  std::string detail;
};

// Opaque per-context handles (CUDA: the stream, cuBLAS and cuSPARSE handles; host: none).
struct DeviceHandles {
  void* stream = nullptr;
  void* blas = nullptr;
  void* sparse = nullptr;
};

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  virtual Device::Kind kind() const = 0;
  virtual int device_count() const = 0;
  // One line for `mlsys version`: devices, driver and runtime versions.
  virtual std::string describe() const = 0;

  // A context's stream and library handles on `device` (an ordinal of this kind).
  virtual DeviceHandles open(int device) = 0;
  virtual void close(int device, const DeviceHandles& h) = 0;
  // Waits for the work queued on `stream` (nullptr: everything on the device).
  virtual void synchronize(int device, void* stream) = 0;

  // The caching pool every tensor of a context on `device` is allocated from.
  virtual std::shared_ptr<MemoryPool> make_pool(std::string name, int device, uint64_t limit_bytes) = 0;
  // Raw memory of this kind (what the pool caches): nullptr when out of memory.
  virtual void* allocate(int device, size_t bytes) = 0;
  virtual void free(int device, void* p) = 0;
  // Synchronous copy; either side may be host memory (the backend's memory model decides).
  virtual void copy(void* dst, const void* src, size_t bytes) = 0;
  virtual void zero(int device, void* p, size_t bytes) = 0;
  // The ordinal of the device whose memory `p` points into; -1 for host memory.
  virtual int device_of(const void* p) const { return -1; }
  // Memory in use on `device` as its driver reports it (total - free: every context, library
  // workspace and process on that device, not only our pools); 0 when the backend cannot tell.
  virtual uint64_t driver_used_bytes(int device) const {
    (void)device;
    return 0;
  }

  virtual const kernels::KernelTable& kernels() const = 0;
  // Codec kernels on this kind's memory (quant::Impl::cuda); nullptr for the host, whose codecs
  // call the CPU kernels directly.
  virtual const quant::DeviceCodecKernels* codec_kernels() const { return nullptr; }
};

// The backend of `kind`; cuda loads libmlsys_cuda.so on first use. Throws ConfigError (exit 2)
// with the reason in one line when the backend is unavailable.
DeviceBackend& device_backend(Device::Kind kind);
// Available or not, with the reason; cheap when unavailable (probes the driver before loading).
BackendStatus device_backend_status(Device::Kind kind);
const char* kind_name(Device::Kind kind);  // "cpu" | "cuda"

// Called by a plugin's entry point (and by tests, with an emulated device): `backend` serves
// `kind` from now on. Not owned: it must outlive every context made with it. Returns the backend
// it replaces (nullptr if none), so a test can put it back.
DeviceBackend* register_device_backend(Device::Kind kind, DeviceBackend* backend);

}  // namespace mlsys
