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

// True when this build has CUDA (MLSYS_WITH_CUDA).
bool cuda_compiled();
// Number of CUDA devices visible at runtime (0 when not compiled in or no GPU/driver).
int cuda_device_count();
// Throws Error naming the CMake option / missing GPU unless `d` can be used in this process.
void require_device(const Device& d);

}  // namespace mlsys
