// quant::CodecOverride, the test seam that puts a deliberately broken codec on the real training
// path (tests/gnn/train/repro_parity_test.cpp): it replaces one name while alive, and only that.
#include "core/quant/codec_override.hpp"

#include <doctest/doctest.h>

#include "core/util/error.hpp"

using namespace mlsys;

namespace {
// A stand-in that reports its own width, so a test sees which factory made a codec.
class Marked final : public quant::Codec {
 public:
  explicit Marked(std::unique_ptr<quant::Codec> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  int bits() const override { return 99; }
  quant::Impl impl() const override { return inner_->impl(); }
  size_t wire_bytes(size_t rows, size_t cols) const override { return inner_->wire_bytes(rows, cols); }
  void encode(const float* x, size_t rows, size_t cols, uint64_t seed, uint8_t* out) const override {
    inner_->encode(x, rows, cols, seed, out);
  }
  void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const override { inner_->decode(in, rows, cols, out); }

 private:
  std::unique_ptr<quant::Codec> inner_;
};
quant::CodecOverride::Factory marked() {
  return [](const quant::CodecRegistry::Factory& registered, const quant::CodecParams& p) {
    return std::make_unique<Marked>(registered(p));
  };
}
}  // namespace

TEST_CASE("quant/override: a CodecOverride replaces one codec while alive and the registered one comes back") {
  {
    quant::CodecOverride o("sr1", marked());
    CHECK(quant::make_codec("sr1")->bits() == 99);
    CHECK(quant::unbiased_codec(1)->bits() == 99);  // the path the halo exchanges take
    CHECK(quant::make_codec("sr2")->bits() == 2);   // other names untouched
    CHECK_THROWS_AS(quant::CodecOverride("sr1", marked()), std::logic_error);  // one at a time
  }
  CHECK(quant::make_codec("sr1")->bits() == 1);
  CHECK_THROWS_AS(quant::CodecOverride("sr3", marked()), ConfigError);  // not a registered name
}
