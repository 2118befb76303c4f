// The cuda device backend and the entry point of libmlsys_cuda.so: memory, streams and library
// handles through the CUDA runtime, the CUDA kernel table (core/kernels/cuda) and the CUDA codec
// kernels (core/quant/cuda). The core loads this plugin with dlopen (core/tensor/plugin.hpp) the
// first time a cuda device is asked for; the entry point registers the backend.
#include "core/kernels/cuda/cuda_kernels.hpp"
#include "core/kernels/kernel_table.hpp"
#include "core/quant/cuda/cuda_codec_kernels.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/tensor/cuda/cuda_runtime.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/tensor/device_pool.hpp"
#include "core/tensor/plugin.hpp"

namespace mlsys {
namespace {

class CudaBackend final : public DeviceBackend {
 public:
  CudaBackend() {
#define MLSYS_KERNEL(ret, name, params, args) kernels_.name = &kernels::cuda::name;
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
    codecs_.sr_encode = &quant::kernels::cuda::sr_encode;
    codecs_.sr_decode = &quant::kernels::cuda::sr_decode;
    codecs_.half_encode = &quant::kernels::cuda::half_encode;
    codecs_.half_decode = &quant::kernels::cuda::half_decode;
    codecs_.copy = &quant::kernels::cuda::copy;
    codecs_.rounding_rules = MLSYS_ROUNDING_RULE_NAMES;  // the rules sr_kernels.cu was instantiated for
  }
  Device::Kind kind() const override { return Device::Kind::cuda; }
  int device_count() const override { return cudart::device_count(); }
  std::string describe() const override { return cudart::describe_devices(); }

  DeviceHandles open(int device) override {
    cudart::set_device(device);
    DeviceHandles h;
    h.stream = cudart::create_stream();
    h.blas = cudart::create_blas(h.stream);
    h.sparse = cudart::create_sparse(h.stream);
    return h;
  }
  void close(int device, const DeviceHandles& h) override {
    cudart::set_device(device);
    cudart::synchronize(h.stream);
    cudart::destroy_sparse(h.sparse);
    cudart::destroy_blas(h.blas);
    cudart::destroy_stream(h.stream);
  }
  void synchronize(int device, void* stream) override {
    cudart::set_device(device);
    cudart::synchronize(stream);
  }
  std::shared_ptr<MemoryPool> make_pool(std::string name, int device, uint64_t limit_bytes) override {
    return std::make_shared<DeviceCachingPool>(std::move(name), *this, Device::cuda(device), limit_bytes);
  }
  void* allocate(int device, size_t bytes) override {
    cudart::set_device(device);
    return cudart::device_malloc(bytes);
  }
  void free(int, void* p) override { cudart::device_free(p); }
  void copy(void* dst, const void* src, size_t bytes) override { cudart::memcpy(dst, src, bytes); }
  void zero(int device, void* p, size_t bytes) override { cudart::memset_zero(p, bytes, device); }
  int device_of(const void* p) const override { return cudart::device_of(p); }
  uint64_t driver_used_bytes(int device) const override { return cudart::used_bytes(device); }
  const kernels::KernelTable& kernels() const override { return kernels_; }
  const quant::DeviceCodecKernels* codec_kernels() const override { return &codecs_; }

 private:
  kernels::KernelTable kernels_;
  quant::DeviceCodecKernels codecs_;
};

}  // namespace
}  // namespace mlsys

extern "C" __attribute__((visibility("default"))) const char* mlsys_plugin_init(int abi) {
  if (abi != mlsys::plugin::kPluginAbi)
    return "libmlsys_cuda.so was built for another mlsys (plugin ABI mismatch): rebuild it with this mlsys";
  static mlsys::CudaBackend* backend = new mlsys::CudaBackend();  // lives as long as the process
  static const std::string missing = backend->kernels().missing();
  if (!missing.empty()) return "libmlsys_cuda.so lacks kernels; rebuild it";
  mlsys::register_device_backend(mlsys::Device::Kind::cuda, backend);
  return nullptr;
}
