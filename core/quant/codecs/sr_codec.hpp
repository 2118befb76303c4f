#pragma once
// The SR codec family (format: codec.hpp). Every width 1..8 runs on the generic kernels (reference,
// AVX2 and CUDA), so a new width is one file that registers it, plus its test:
//
//   const bool registered = quant::add_sr_codec(3, "3-bit stochastic rounding, per-row min/scale");
//
// It is then "sr3" in the codec table and a choice of every bit-width key (unbiased_widths()).
#include <string>

namespace mlsys::quant {

// Registers "sr<bits>"; std::logic_error for a width outside [kSrMinBits, kSrMaxBits] (sr_format.hpp)
// or one registered twice.
bool add_sr_codec(int bits, std::string description);

}  // namespace mlsys::quant
