#pragma once
#include <string>

#include "core/config/schema.hpp"

namespace mlsys {

// The `device:` section shared by commands that compute (train-gnn, coopt).
struct DeviceOptions {
  std::string type = "cpu";  // cpu | cuda
  int index = 0;             // CUDA device ordinal (per rank: index + local rank when ranks share a node)
  double host_pool_limit_mb = 0;    // 0 = unlimited
  double device_pool_limit_mb = 0;  // 0 = unlimited
};

const config::Section<DeviceOptions>& device_section();

}  // namespace mlsys
