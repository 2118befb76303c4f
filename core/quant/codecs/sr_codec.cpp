// b-bit stochastic rounding with per-row min and scale (format in codec.hpp), any b in 1..8; the
// widths registered here are 1, 2, 4 and 8.
#include "core/quant/codecs/sr_codec.hpp"

#include <stdexcept>

#include "core/quant/codec.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/sr_format.hpp"

namespace mlsys::quant {
namespace {

class SrCodec final : public Codec {
 public:
  SrCodec(const CodecParams& p, int bits) : p_(p), bits_(bits) {}
  std::string name() const override { return "sr" + std::to_string(bits_); }
  int bits() const override { return bits_; }
  bool stochastic() const override { return true; }
  bool device() const override { return true; }
  Impl impl() const override { return p_.impl; }
  size_t wire_bytes(size_t rows, size_t cols) const override { return sr_wire_bytes(rows, cols, bits_, p_.meta); }
  void encode(const float* x, size_t rows, size_t cols, uint64_t seed, uint8_t* out) const override {
    if (rows == 0 || cols == 0) return;
    switch (p_.impl) {
      case Impl::reference:
        return kernels::sr_encode_reference(x, rows, cols, bits_, p_.meta, seed, out);
      case Impl::fast:
        return kernels::sr_encode_fast(x, rows, cols, bits_, p_.meta, seed, out);
      case Impl::cuda:
        return kernels::sr_encode_cuda(x, rows, cols, bits_, p_.meta, seed, out, p_.cuda_stream);
    }
  }
  void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const override {
    if (rows == 0 || cols == 0) return;
    switch (p_.impl) {
      case Impl::reference:
        return kernels::sr_decode_reference(in, rows, cols, bits_, p_.meta, out);
      case Impl::fast:
        return kernels::sr_decode_fast(in, rows, cols, bits_, p_.meta, out);
      case Impl::cuda:
        return kernels::sr_decode_cuda(in, rows, cols, bits_, p_.meta, out, p_.cuda_stream);
    }
  }

 private:
  CodecParams p_;
  int bits_;
};

}  // namespace

bool add_sr_codec(int bits, std::string description) {
  if (bits < kSrMinBits || bits > kSrMaxBits)
    throw std::logic_error("SR codec width " + std::to_string(bits) + " is outside " + std::to_string(kSrMinBits) +
                           ".." + std::to_string(kSrMaxBits));
  return codec_registry().add("sr" + std::to_string(bits), std::move(description),
                              [bits](const CodecParams& p) { return std::make_unique<SrCodec>(p, bits); });
}

namespace {
const bool registered =
    add_sr_codec(1, "1-bit stochastic rounding, per-row min/scale (~25x at F=128, fp16 metadata)") &&
    add_sr_codec(2, "2-bit stochastic rounding, per-row min/scale") &&
    add_sr_codec(4, "4-bit stochastic rounding, per-row min/scale") &&
    add_sr_codec(8, "8-bit stochastic rounding, per-row min/scale");
}  // namespace

}  // namespace mlsys::quant
