#pragma once
// The per-row min/scale codec family (format: codec.hpp), one codec per rounding rule and width:
// "sr<b>" rounds stochastically, "rn<b>" to nearest (rounding/*.hpp; each rule registers the widths
// its header lists). Every width 1..8 runs on the generic kernels (reference, AVX2 and CUDA), so a
// new width is one file that registers it, plus its test:
//
//   const bool registered = quant::add_sr_codec(3, "3-bit stochastic rounding, per-row min/scale");
//
// It is then "sr3" in the codec table and a choice of every bit-width key (unbiased_widths()). A new
// rounding rule is one header under rounding/ (rounding_rule.hpp), plus its test.
#include <string>

namespace mlsys::quant {

// Registers "<prefix><bits>" for the rounding rule whose kPrefix is `prefix` ("sr", "rn");
// std::logic_error for an unknown prefix, a width outside [kSrMinBits, kSrMaxBits] (sr_format.hpp)
// or one registered twice.
bool add_rounding_codec(const std::string& prefix, int bits, std::string description);
// add_rounding_codec("sr", bits, description): a stochastic rounding width.
bool add_sr_codec(int bits, std::string description);

}  // namespace mlsys::quant
