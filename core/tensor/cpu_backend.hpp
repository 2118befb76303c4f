#pragma once
// The host device backend: host memory (the CPU caching pool), no streams, the CPU kernels
// (OpenBLAS + OpenMP). Part of the core library; every build has it.
#include "core/tensor/device_backend.hpp"

namespace mlsys {

DeviceBackend& cpu_backend();

}  // namespace mlsys
