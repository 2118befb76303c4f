#pragma once
// Thin wrappers over the CUDA runtime, cuBLAS and cuSPARSE handles, usable from plain C++ files
// (no CUDA headers here; handles are void*). Only compiled with MLSYS_WITH_CUDA. Every call
// checks its status and throws mlsys::Error naming the call and the CUDA error string.
#include <cstddef>

namespace mlsys::cudart {

int device_count();  // 0 when the driver or a device is missing (no throw)
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
void* device_malloc(size_t bytes);  // nullptr when out of memory (so the pool can free its cache)
void device_free(void* p);
void check_last(const char* what);  // throws if the last launch failed

}  // namespace mlsys::cudart
