#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "core/tensor/cuda/cuda_runtime.hpp"
#include "core/util/error.hpp"

namespace mlsys::cudart {

static void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  // The failed call's error is also the thread's "last error": taken here, so that the next
  // launch check does not report it as its own.
  (void)cudaGetLastError();
  throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

static std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

int device_count(std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky "no driver" error
    if (why) {
      int driver = 0;
      cudaDriverGetVersion(&driver);
      if (e == cudaErrorInsufficientDriver)
        *why = "driver too old: it supports CUDA " + version_text(driver) + ", the runtime is CUDA " +
               version_text(CUDART_VERSION) + " (update the NVIDIA driver)";
      else
        *why = std::string("no usable device (") + cudaGetErrorString(e) + ")";
    }
    return 0;
  }
  if (n == 0 && why) *why = "no device (the CUDA runtime sees no GPU)";
  return n;
}

std::string describe_devices() {
  std::string why;
  int n = device_count(&why);
  if (n == 0) return why;
  std::string out = std::to_string(n) + (n == 1 ? " device: " : " devices: ");
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    if (d) out += ", ";
    out += std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
           std::to_string(p.totalGlobalMem >> 30) + " GiB)";
  }
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  return out + "; CUDA runtime " + version_text(runtime) + ", driver " + version_text(driver);
}

void set_device(int index) { check(cudaSetDevice(index), "cudaSetDevice"); }

int current_device() {
  int d = 0;
  check(cudaGetDevice(&d), "cudaGetDevice");
  return d;
}

void* create_stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  return s;
}

void destroy_stream(void* s) {
  if (s) cudaStreamDestroy(static_cast<cudaStream_t>(s));
}

void synchronize(void* s) {
  if (!s) check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  else check(cudaStreamSynchronize(static_cast<cudaStream_t>(s)), "cudaStreamSynchronize");
}

void* create_blas(void* stream) {
  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw Error("cublasCreate failed (is the GPU usable?)");
  cublasSetStream(h, static_cast<cudaStream_t>(stream));
  return h;
}

void destroy_blas(void* h) {
  if (h) cublasDestroy(static_cast<cublasHandle_t>(h));
}

void* create_sparse(void* stream) {
  cusparseHandle_t h = nullptr;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) throw Error("cusparseCreate failed (is the GPU usable?)");
  cusparseSetStream(h, static_cast<cudaStream_t>(stream));
  return h;
}

void destroy_sparse(void* h) {
  if (h) cusparseDestroy(static_cast<cusparseHandle_t>(h));
}

void memcpy(void* dst, const void* src, size_t bytes) { check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy"); }

void memset_zero(void* p, size_t bytes, int device) {
  set_device(device);
  check(cudaMemset(p, 0, bytes), "cudaMemset");
}

void* device_malloc(size_t bytes) {
  void* p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

void device_free(void* p) {
  if (p) cudaFree(p);
}

uint64_t used_bytes(int device) {
  set_device(device);
  size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return static_cast<uint64_t>(total - free);
}

void check_last(const char* what) { check(cudaGetLastError(), what); }

int device_of(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

}  // namespace mlsys::cudart
