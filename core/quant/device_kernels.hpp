#pragma once
// Codec kernels on device memory. A device backend (libmlsys_cuda.so) provides this table; the
// codecs reach it through kernels.hpp's *_cuda entry points (Impl::cuda), so the core links no
// CUDA library. params_for(ctx) gives the codec parameters whose kernels run where ctx's memory
// is, so a caller never branches on the device:
//
//   auto codec = quant::unbiased_codec(1, quant::params_for(ctx));   // sr1 on ctx's device
#include <cstddef>
#include <cstdint>

#include "core/quant/codec.hpp"
#include "core/quant/meta_precision.hpp"
#include "core/tensor/device_context.hpp"

namespace mlsys::quant {

struct DeviceCodecKernels {
  void (*sr_encode)(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
                    uint8_t* out, void* stream) = nullptr;  // rule: index in RoundingRules (rounding.hpp)
  void (*sr_decode)(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out,
                    void* stream) = nullptr;
  void (*half_encode)(const float* x, size_t n, bool bf16, uint8_t* out, void* stream) = nullptr;
  void (*half_decode)(const uint8_t* in, size_t n, bool bf16, float* out, void* stream) = nullptr;
  void (*copy)(const void* src, size_t bytes, void* dst, void* stream) = nullptr;
  // The rounding rules sr_encode's `rule` indexes, as MLSYS_ROUNDING_RULE_NAMES where the kernels
  // were compiled (the plugin assigns the literal itself); the core refuses a table whose list
  // differs from its own (a plugin built before a rule was added), as indices would then mismatch.
  const char* rounding_rules = nullptr;
};

// `base` with the implementation for ctx's memory: Impl::cuda on ctx's stream for a CUDA context;
// `base` unchanged (a CPU impl) for the host.
CodecParams params_for(const DeviceContext& ctx, CodecParams base = {});
// Whether `codec`'s kernels take pointers to memory of device `d` (cuda impl <-> CUDA memory).
bool runs_on(const Codec& codec, const Device& d);

}  // namespace mlsys::quant
