// b-bit stochastic rounding with per-row min and scale (format in codec.hpp), b in {1, 2, 4, 8}.
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

bool add(int bits, const char* description) {
  return codec_registry().add("sr" + std::to_string(bits), description,
                              [bits](const CodecParams& p) { return std::make_unique<SrCodec>(p, bits); });
}

const bool registered = add(1, "1-bit stochastic rounding, per-row min/scale (~25x at F=128, fp16 metadata)") &&
                        add(2, "2-bit stochastic rounding, per-row min/scale") &&
                        add(4, "4-bit stochastic rounding, per-row min/scale") &&
                        add(8, "8-bit stochastic rounding, per-row min/scale");

}  // namespace
}  // namespace mlsys::quant
