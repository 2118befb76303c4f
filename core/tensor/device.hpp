#pragma once
// Where a tensor lives: the host (`cpu`) or one CUDA device (`cuda:N`).
#include <string>

namespace mlsys {

struct Device {
  enum class Kind { cpu, cuda };
  Kind kind = Kind::cpu;
  int index = 0;  // CUDA ordinal; 0 for cpu

  static Device cpu() { return {}; }
  static Device cuda(int index = 0) { return {Kind::cuda, index}; }
  // "cpu", "cuda", "cuda:1"; throws ConfigError otherwise.
  static Device parse(const std::string& s);

  bool is_cpu() const { return kind == Kind::cpu; }
  bool is_cuda() const { return kind == Kind::cuda; }
  std::string str() const;  // "cpu" or "cuda:N"
  bool operator==(const Device& o) const { return kind == o.kind && (kind == Kind::cpu || index == o.index); }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

// Number of CUDA devices usable in this process: 0 when the cuda backend is unavailable (no
// libmlsys_cuda.so, no driver, no GPU; device_backend_status says which). Loads the plugin when
// the driver reports a GPU.
int cuda_device_count();
// Throws ConfigError with the reason unless `d` can be used in this process.
void require_device(const Device& d);

}  // namespace mlsys
