#include "core/tensor/device.hpp"

#include "core/tensor/device_backend.hpp"
#include "core/util/error.hpp"

namespace mlsys {

Device Device::parse(const std::string& s) {
  if (s == "cpu") return cpu();
  if (s == "cuda") return cuda(0);
  if (s.rfind("cuda:", 0) == 0) {
    try {
      size_t used = 0;
      int idx = std::stoi(s.substr(5), &used);
      if (used == s.size() - 5 && idx >= 0) return cuda(idx);
    } catch (const std::exception&) {
    }
  }
  throw ConfigError("unknown device '" + s + "' (expected cpu, cuda or cuda:N)");
}

std::string Device::str() const { return is_cpu() ? "cpu" : "cuda:" + std::to_string(index); }

int cuda_device_count() {
  if (!device_backend_status(Device::Kind::cuda).available) return 0;
  return device_backend(Device::Kind::cuda).device_count();
}

void require_device(const Device& d) {
  if (d.is_cpu()) return;
  int n = device_backend(d.kind).device_count();  // ConfigError with the reason when unavailable
  if (d.index >= n)
    throw ConfigError("device " + d.str() + " requested but " + std::to_string(n) + " " + kind_name(d.kind) +
                      " device(s) are visible (check CUDA_VISIBLE_DEVICES, or set device.index / device.type: cpu)");
}

}  // namespace mlsys
