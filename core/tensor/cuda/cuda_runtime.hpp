#pragma once
// Thin wrappers over the CUDA runtime, cuBLAS and cuSPARSE handles, usable from plain C++ files
// (no CUDA headers here; handles are void*). Part of the cuda plugin (libmlsys_cuda.so), never of
// the core. Every call checks its status and throws mlsys::Error naming the call and the CUDA
// error string.
#include <cstddef>
#include <cstdint>
#include <string>

namespace mlsys::cudart {

// 0 when the driver or a device is missing (no throw); `why` gets the runtime's reason then, with
// "driver too old" spelled out for cudaErrorInsufficientDriver.
int device_count(std::string* why = nullptr);
// "1 device: NVIDIA H200 (sm_90, 140 GiB); CUDA runtime 13.0, driver 13.0"
std::string describe_devices();
void set_device(int index);
int current_device();
void* create_stream();  // blocking w.r.t. the legacy default stream, so cudaMemcpy orders with it
void destroy_stream(void* stream);
void synchronize(void* stream);
void* create_blas(void* stream);
void destroy_blas(void* handle);
void* create_sparse(void* stream);
void destroy_sparse(void* handle);
// Synchronous copy between any host/device pointers (unified addressing decides the direction).
void memcpy(void* dst, const void* src, size_t bytes);
void memset_zero(void* p, size_t bytes, int device);
void* device_malloc(size_t bytes);
uint64_t used_bytes(int device);  // total - free as the driver reports it (cudaMemGetInfo)  // nullptr when out of memory (so the pool can free its cache)
void device_free(void* p);
void check_last(const char* what);
int device_of(const void* p);  // the device ordinal of device memory, -1 for host memory  // throws if the last launch failed

}  // namespace mlsys::cudart
