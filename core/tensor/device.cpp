#include "core/tensor/device.hpp"

#include "core/util/error.hpp"
#ifdef MLSYS_WITH_CUDA
#include "core/tensor/cuda/cuda_runtime.hpp"
#endif

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

bool cuda_compiled() {
#ifdef MLSYS_WITH_CUDA
  return true;
#else
  return false;
#endif
}

int cuda_device_count() {
#ifdef MLSYS_WITH_CUDA
  return cudart::device_count();
#else
  return 0;
#endif
}

void require_device(const Device& d) {
  if (d.is_cpu()) return;
  if (!cuda_compiled())
    throw Error("device " + d.str() + " requested but this mlsys was built without CUDA "
                "(reconfigure with -DMLSYS_WITH_CUDA=ON, or set device.type: cpu)");
  int n = cuda_device_count();
  if (d.index >= n)
    throw Error("device " + d.str() + " requested but " + std::to_string(n) +
                " CUDA device(s) are visible (check CUDA_VISIBLE_DEVICES and the driver, or set device.type: cpu)");
}

}  // namespace mlsys
