#include "core/tensor/device_options.hpp"

namespace mlsys {

const config::Section<DeviceOptions>& device_section() {
  static const config::Section<DeviceOptions> s("device", "Compute device and memory pools", [](auto& s) {
    s.field("type", &DeviceOptions::type, "cpu, or cuda (needs a build with MLSYS_WITH_CUDA and a GPU)")
        .choices({"cpu", "cuda"});
    s.field("index", &DeviceOptions::index, "CUDA device ordinal").range(0, 64);
    s.field("host_pool_limit_mb", &DeviceOptions::host_pool_limit_mb, "Host memory pool limit in MiB; 0 = unlimited")
        .range(0, 1e9);
    s.field("device_pool_limit_mb", &DeviceOptions::device_pool_limit_mb,
            "CUDA memory pool limit in MiB; 0 = unlimited")
        .range(0, 1e9);
  });
  return s;
}

}  // namespace mlsys
