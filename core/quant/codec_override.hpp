#pragma once
// Test seam (implemented in codec.cpp): while a CodecOverride is alive, make_codec(name), and so
// unbiased_codec, the halo exchanges and the quantized collectives, builds that codec with its
// factory instead of the registered one; the registry, the codec table and every other name are
// unchanged. Why: a test must be able to show that a check (the Sylvie reproduction's
// 1-bit-vs-fp32 parity, tests/gnn/train/repro_parity_test.cpp) fails when the codec on the real
// training path is broken, without a broken codec in the product or a config key that picks one.
// One override per name at a time; make and drop it while no codec is being made (not during
// training).
#include <functional>
#include <memory>
#include <string>

#include "core/quant/codec.hpp"

namespace mlsys::quant {

class CodecOverride {
 public:
  // `registered`: the registry's factory of that name, for an override that wraps the real codec.
  using Factory = std::function<std::unique_ptr<Codec>(const CodecRegistry::Factory& registered, const CodecParams&)>;
  CodecOverride(std::string name, Factory factory);  // ConfigError for a name the registry lacks
  ~CodecOverride();
  CodecOverride(const CodecOverride&) = delete;
  CodecOverride& operator=(const CodecOverride&) = delete;

 private:
  std::string name_;
};

}  // namespace mlsys::quant
