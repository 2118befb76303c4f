#include "core/quant/codec.hpp"

#include "core/util/error.hpp"

namespace mlsys::quant {

CodecRegistry& codec_registry() {
  static CodecRegistry r("quantization codec");
  return r;
}

MetaPrecision parse_meta_precision(const std::string& s) {
  if (s == "fp16") return MetaPrecision::fp16;
  if (s == "bf16") return MetaPrecision::bf16;
  if (s == "fp32") return MetaPrecision::fp32;
  throw ConfigError("unknown quantization metadata precision '" + s + "'; valid: fp16, bf16, fp32");
}

const char* to_string(MetaPrecision m) {
  switch (m) {
    case MetaPrecision::fp16:
      return "fp16";
    case MetaPrecision::bf16:
      return "bf16";
    case MetaPrecision::fp32:
      return "fp32";
  }
  return "?";
}

size_t meta_bytes(MetaPrecision m) { return m == MetaPrecision::fp32 ? 4 : 2; }

Impl parse_impl(const std::string& s) {
  if (s == "reference") return Impl::reference;
  if (s == "fast") return Impl::fast;
  if (s == "cuda") return Impl::cuda;
  throw ConfigError("unknown codec implementation '" + s + "'; valid: reference, fast, cuda");
}

const char* to_string(Impl i) {
  switch (i) {
    case Impl::reference:
      return "reference";
    case Impl::fast:
      return "fast";
    case Impl::cuda:
      return "cuda";
  }
  return "?";
}

std::unique_ptr<Codec> make_codec(const std::string& name, const CodecParams& params) {
#ifndef MLSYS_WITH_CUDA
  if (params.impl == Impl::cuda)
    throw ConfigError("codec '" + name + "': CUDA kernels are not built; reconfigure with -DMLSYS_WITH_CUDA=ON");
#endif
  return codec_registry().create(name, params);
}

std::string codec_name_for_bits(int bits) {
  switch (bits) {
    case 32:
      return "fp32";
    case 16:
      return "fp16";
    case 1:
    case 2:
    case 4:
    case 8:
      return "sr" + std::to_string(bits);
    default:
      throw ConfigError("no codec for " + std::to_string(bits) +
                        " bits; valid: 1, 2, 4, 8 (stochastic rounding), 16 (fp16), 32 (fp32)");
  }
}

std::unique_ptr<Codec> codec_for_bits(int bits, const CodecParams& params) {
  return make_codec(codec_name_for_bits(bits), params);
}

}  // namespace mlsys::quant
