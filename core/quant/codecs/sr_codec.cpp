// b-bit codes with per-row min and scale (format in codec.hpp), any b in 1..8, under each rounding
// rule of rounding/ (rounding.hpp); the widths registered are those each rule's header lists.
#include "core/quant/codecs/sr_codec.hpp"

#include <stdexcept>

#include "core/quant/codec.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/quant/sr_format.hpp"

namespace mlsys::quant {
namespace {

class RowCodec final : public Codec {
 public:
  RowCodec(const CodecParams& p, int rule, int bits) : p_(p), rule_(rule), bits_(bits) {}
  std::string name() const override { return kRoundingRules[size_t(rule_)].prefix + std::to_string(bits_); }
  int bits() const override { return bits_; }
  bool stochastic() const override { return kRoundingRules[size_t(rule_)].stochastic; }
  bool device() const override { return true; }
  Impl impl() const override { return p_.impl; }
  size_t wire_bytes(size_t rows, size_t cols) const override { return sr_wire_bytes(rows, cols, bits_, p_.meta); }
  void encode(const float* x, size_t rows, size_t cols, uint64_t seed, uint8_t* out) const override {
    if (rows == 0 || cols == 0) return;
    switch (p_.impl) {
      case Impl::reference:
        return kernels::sr_encode_reference(x, rows, cols, bits_, p_.meta, rule_, seed, out);
      case Impl::fast:
        return kernels::sr_encode_fast(x, rows, cols, bits_, p_.meta, rule_, seed, out);
      case Impl::cuda:
        return kernels::sr_encode_cuda(x, rows, cols, bits_, p_.meta, rule_, seed, out, p_.cuda_stream);
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
  int rule_;  // index in kRoundingRules
  int bits_;
};

bool register_rules_widths() {
  for (const RoundingRuleInfo& rule : kRoundingRules)
    for (size_t i = 0; i < rule.width_count; ++i)
      add_rounding_codec(rule.prefix, rule.widths[i].bits, rule.widths[i].description);
  return true;
}

}  // namespace

bool add_rounding_codec(const std::string& prefix, int bits, std::string description) {
  int rule = 0;
  while (size_t(rule) < kRoundingRules.size() && prefix != kRoundingRules[size_t(rule)].prefix) ++rule;
  if (size_t(rule) == kRoundingRules.size()) throw std::logic_error("no rounding rule has the prefix '" + prefix + "'");
  if (bits < kSrMinBits || bits > kSrMaxBits)
    throw std::logic_error(prefix + " codec width " + std::to_string(bits) + " is outside " +
                           std::to_string(kSrMinBits) + ".." + std::to_string(kSrMaxBits));
  return codec_registry().add(prefix + std::to_string(bits), std::move(description),
                              [rule, bits](const CodecParams& p) { return std::make_unique<RowCodec>(p, rule, bits); });
}

bool add_sr_codec(int bits, std::string description) { return add_rounding_codec("sr", bits, std::move(description)); }

namespace {
const bool registered = register_rules_widths();
}  // namespace

}  // namespace mlsys::quant
