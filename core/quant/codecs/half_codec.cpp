// fp16 and bf16: each value rounded to nearest even, 2 bytes little-endian on the wire.
#include "core/quant/codec.hpp"
#include "core/quant/kernels.hpp"

namespace mlsys::quant {
namespace {

class HalfCodec final : public Codec {
 public:
  HalfCodec(const CodecParams& p, bool bf16) : p_(p), bf16_(bf16) {}
  std::string name() const override { return bf16_ ? "bf16" : "fp16"; }
  int bits() const override { return 16; }
  bool device() const override { return true; }
  Impl impl() const override { return p_.impl; }
  size_t wire_bytes(size_t rows, size_t cols) const override { return rows * cols * 2; }
  void encode(const float* x, size_t rows, size_t cols, uint64_t, uint8_t* out) const override {
    size_t n = rows * cols;
    switch (p_.impl) {
      case Impl::reference:
        return kernels::half_encode_reference(x, n, bf16_, out);
      case Impl::fast:
        return kernels::half_encode_fast(x, n, bf16_, out);
      case Impl::cuda:
        return kernels::half_encode_cuda(x, n, bf16_, out, p_.cuda_stream);
    }
  }
  void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const override {
    size_t n = rows * cols;
    switch (p_.impl) {
      case Impl::reference:
        return kernels::half_decode_reference(in, n, bf16_, out);
      case Impl::fast:
        return kernels::half_decode_fast(in, n, bf16_, out);
      case Impl::cuda:
        return kernels::half_decode_cuda(in, n, bf16_, out, p_.cuda_stream);
    }
  }

 private:
  CodecParams p_;
  bool bf16_;
};

const bool registered_fp16 =
    codec_registry().add("fp16", "IEEE half precision, round to nearest even (2x)",
                         [](const CodecParams& p) { return std::make_unique<HalfCodec>(p, false); });
const bool registered_bf16 =
    codec_registry().add("bf16", "bfloat16, round to nearest even (2x)",
                         [](const CodecParams& p) { return std::make_unique<HalfCodec>(p, true); });

}  // namespace
}  // namespace mlsys::quant
