// fp32 passthrough: the wire carries the values unchanged (the baseline of every ratio).
#include <cstring>

#include "core/quant/codec.hpp"
#include "core/quant/kernels.hpp"

namespace mlsys::quant {
namespace {

class Fp32Codec final : public Codec {
 public:
  explicit Fp32Codec(const CodecParams& p) : p_(p) {}
  std::string name() const override { return "fp32"; }
  int bits() const override { return 32; }
  bool lossless() const override { return true; }
  bool device() const override { return true; }
  bool passthrough() const override { return true; }
  Impl impl() const override { return p_.impl; }
  size_t wire_bytes(size_t rows, size_t cols) const override { return rows * cols * 4; }
  void encode(const float* x, size_t rows, size_t cols, uint64_t, uint8_t* out) const override {
    copy(x, out, rows * cols * 4);
  }
  void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const override {
    copy(in, out, rows * cols * 4);
  }

 private:
  void copy(const void* src, void* dst, size_t bytes) const {
    if (p_.impl == Impl::cuda) return kernels::copy_cuda(src, bytes, dst, p_.cuda_stream);
    if (bytes) std::memcpy(dst, src, bytes);
  }
  CodecParams p_;
};

const bool registered = codec_registry().add("fp32", "32-bit float passthrough (no compression)",
                                             [](const CodecParams& p) { return std::make_unique<Fp32Codec>(p); });

}  // namespace
}  // namespace mlsys::quant
