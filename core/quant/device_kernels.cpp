#include "core/quant/device_kernels.hpp"

#include <cstring>
#include <string>

#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/util/error.hpp"

namespace mlsys::quant {

CodecParams params_for(const DeviceContext& ctx, CodecParams base) {
  if (ctx.device().is_cpu()) return base;
  base.impl = Impl::cuda;
  base.cuda_stream = ctx.stream();
  return base;
}

bool runs_on(const Codec& codec, const Device& d) { return (codec.impl() == Impl::cuda) == d.is_cuda(); }

namespace kernels {
namespace {
const DeviceCodecKernels& table() {
  const DeviceCodecKernels* t = device_backend(Device::Kind::cuda).codec_kernels();
  if (!t) throw Error("the cuda backend provides no codec kernels");
  const char* rules = t->rounding_rules ? t->rounding_rules : "";
  if (std::strcmp(rules, MLSYS_ROUNDING_RULE_NAMES) != 0)
    throw Error(std::string("the cuda backend's codec kernels were built for the rounding rules '") + rules +
                "' but this mlsys has '" MLSYS_ROUNDING_RULE_NAMES "': rebuild libmlsys_cuda.so (make mlsys_cuda)");
  return *t;
}
}  // namespace

void sr_encode_cuda(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                    uint8_t* out, void* stream) {
  table().sr_encode(x, rows, cols, bits, m, rule, seed, out, stream);
}
void sr_decode_cuda(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out, void* stream) {
  table().sr_decode(in, rows, cols, bits, m, out, stream);
}
void half_encode_cuda(const float* x, size_t n, bool bf16, uint8_t* out, void* stream) {
  table().half_encode(x, n, bf16, out, stream);
}
void half_decode_cuda(const uint8_t* in, size_t n, bool bf16, float* out, void* stream) {
  table().half_decode(in, n, bf16, out, stream);
}
void copy_cuda(const void* src, size_t bytes, void* dst, void* stream) { table().copy(src, bytes, dst, stream); }

}  // namespace kernels
}  // namespace mlsys::quant
