#include "core/tensor/device_backend.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "core/tensor/plugin.hpp"
#include "core/util/error.hpp"

// The CUDA major.minor the plugin was built with (CUDAToolkit_VERSION as 1000*major + 10*minor),
// so a driver too old for it is named before the plugin's libraries are even loaded. 0: this tree
// has no CUDA plugin.
#ifndef MLSYS_CUDA_TOOLKIT_VERSION
#define MLSYS_CUDA_TOOLKIT_VERSION 0
#endif

namespace mlsys {

namespace {

std::mutex g_load_mu;                                  // serializes plugin loading
std::atomic<DeviceBackend*> g_backends[2] = {nullptr, nullptr};  // by Device::Kind; read on every dispatch

int slot(Device::Kind k) { return k == Device::Kind::cpu ? 0 : 1; }

std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// Asks the NVIDIA driver (libcuda.so.1, through dlsym: no CUDA library is linked) whether a CUDA
// device is usable, before the plugin and its large libraries are loaded. Cheap when there is no
// driver, which is what keeps `mlsys version` fast on a CPU-only machine.
BackendStatus probe_cuda_driver() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return {false, "no NVIDIA driver (libcuda.so.1 not found)"};
  using IntFn = int (*)(int*);
  using InitFn = int (*)(unsigned);
  using ErrFn = int (*)(int, const char**);
  auto cu_init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  auto cu_count = reinterpret_cast<IntFn>(dlsym(lib, "cuDeviceGetCount"));
  auto cu_version = reinterpret_cast<IntFn>(dlsym(lib, "cuDriverGetVersion"));
  auto cu_error = reinterpret_cast<ErrFn>(dlsym(lib, "cuGetErrorString"));
  if (!cu_init || !cu_count || !cu_version) return {false, "library missing: libcuda.so.1 lacks the driver API"};
  int driver = 0;
  cu_version(&driver);
  if (int rc = cu_init(0); rc != 0) {
    const char* what = nullptr;
    if (cu_error) cu_error(rc, &what);
    std::string why = what ? what : "error " + std::to_string(rc);
    if (rc == 100) return {false, "no device (the NVIDIA driver sees no CUDA GPU)"};
    return {false, "no usable device (cuInit: " + why + ")"};
  }
  int count = 0;
  if (cu_count(&count) != 0 || count == 0) return {false, "no device (the NVIDIA driver sees no CUDA GPU)"};
  if (MLSYS_CUDA_TOOLKIT_VERSION && driver / 1000 < MLSYS_CUDA_TOOLKIT_VERSION / 1000)
    return {false, "driver too old: it supports CUDA " + cuda_version_text(driver) + ", mlsys was built with CUDA " +
                       cuda_version_text(MLSYS_CUDA_TOOLKIT_VERSION) + " (update the NVIDIA driver)"};
  return {true, ""};
}

// Loads the plugin of `kind` if the driver allows it; the reason when it cannot be used.
BackendStatus load_cuda() {
  if (!plugin::find("cuda"))
    return {false, "library missing: " + plugin::file_name("cuda") + " not found in " + plugin::search_path_text() +
                       (MLSYS_CUDA_TOOLKIT_VERSION ? "" : " (this mlsys was built without CUDA: -DMLSYS_WITH_CUDA=ON)")};
  BackendStatus driver = probe_cuda_driver();
  if (!driver.available) return driver;
  if (std::string err = plugin::load("cuda"); !err.empty()) return {false, err};
  return {true, ""};
}

}  // namespace

const char* kind_name(Device::Kind kind) { return kind == Device::Kind::cpu ? "cpu" : "cuda"; }

DeviceBackend* register_device_backend(Device::Kind kind, DeviceBackend* backend) {
  return g_backends[slot(kind)].exchange(backend);
}

BackendStatus device_backend_status(Device::Kind kind) {
  DeviceBackend* b = g_backends[slot(kind)].load();
  if (!b && kind == Device::Kind::cpu) return {false, "no cpu backend registered (core/device/cpu_backend.cpp)"};
  if (!b) {
    std::lock_guard<std::mutex> lock(g_load_mu);
    if (!g_backends[slot(kind)].load()) {
      BackendStatus s = load_cuda();
      if (!s.available) return s;
    }
    b = g_backends[slot(kind)].load();
    if (!b) return {false, plugin::file_name("cuda") + " loaded but registered no cuda backend"};
  }
  try {
    if (b->device_count() == 0) return {false, "no device: " + b->describe()};
    return {true, b->describe()};
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

DeviceBackend& device_backend(Device::Kind kind) {
  if (DeviceBackend* b = g_backends[slot(kind)].load()) return *b;
  BackendStatus s = device_backend_status(kind);
  DeviceBackend* b = g_backends[slot(kind)].load();
  if (!s.available || !b)
    throw ConfigError(std::string("device ") + kind_name(kind) + " is unavailable: " + s.detail +
                      "; use device.type: cpu");
  return *b;
}

}  // namespace mlsys
