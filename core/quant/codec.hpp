#pragma once
// Quantization codecs: turn a row-major float matrix (rows x cols) into a compact byte string and
// back. Every codec is an entry of codec_registry() (one file per family under codecs/), made by
// name (make_codec) or looked up by its traits (bits, stochastic, lossless, device kernels):
// exchanges of training data ask for unbiased_codec(bits), so a new codec of a new width is one
// file plus its kernels and every bit-width key that lists unbiased_widths() offers it.
//
//   name   bits  what
//   fp32    32   passthrough (4 bytes per value)
//   fp16    16   IEEE half, round to nearest even
//   bf16    16   bfloat16, round to nearest even
//   sr1..8  b    stochastic rounding with per-row min and scale (b = 1, 2, 4, 8 shipped; any b in
//                1..8 is one file calling add_sr_codec, codecs/sr_codec.hpp)
//   rn1..8  b    the same format rounded to nearest (rounding/nearest.hpp): deterministic, biased,
//                so never an unbiased_codec; a rounding rule is one header (rounding_rule.hpp)
//
// Stochastic rounding (SR), per row r with mn = min(x_r), mx = max(x_r):
//   s = (2^b - 1) / (mx - mn),  q = clamp(floor((x - mn) * s + u), 0, 2^b - 1),  decode q / s + mn
// where u ~ U[0,1) comes from a counter-based hash of (seed, row, column) (quant/rng.hpp), so the
// reference, vectorized CPU and CUDA kernels draw the same u and agree bit for bit. u is the
// rounding rule's threshold: round to nearest (rn codecs) takes u = 1/2 with everything else alike. mn and s are
// stored at the metadata precision (fp16 default, bf16, fp32); mn is rounded down and s rounded
// toward zero so that every value stays inside the representable range (no clamping bias).
// Rows with mx == mn decode exactly (the value is stored bit-exactly, see below).
//
// Wire layout of an SR block of R rows x F columns (all little-endian):
//   [ R metadata records ][ payload: R*F codes of b bits, packed densely ]
//   metadata record r = { min field, scale field }, each 2 bytes (fp16/bf16) or 4 bytes (fp32).
//   payload: code i = r*F + c occupies bits [i*b, i*b + b) of the payload, LSB first: byte
//   floor(i*b/8), starting at bit (i*b) % 8; when b does not divide 8 a code may continue into the
//   next byte (its high bits at that byte's bit 0). The last byte is zero-padded.
//   wire_bytes = R * 2 * meta_bytes + ceil(R*F*b / 8).
//   Constant row (mx == mn = v): the scale field's sign bit is set (a real scale is always > 0),
//   all its codes are 0 except as noted, and the fp32 bits of v are stored exactly:
//     fp32 metadata: min field = v, scale field = 0x80000000.
//     16-bit metadata: min field = bits 31..16 of v, scale field = 0x8000 | bits 14..0 of v,
//                      bit 15 of v is the row's first payload code's lowest bit.
// Inputs must be finite; a row containing inf/NaN decodes to unspecified (but finite-size) output.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/choice.hpp"
#include "core/quant/meta_precision.hpp"
#include "core/registry/registry.hpp"
#include "core/tensor/device.hpp"

namespace mlsys::quant {

MetaPrecision parse_meta_precision(const std::string& s);  // "fp16" | "bf16" | "fp32"
const char* to_string(MetaPrecision m);
size_t meta_bytes(MetaPrecision m);  // bytes per metadata field (2 or 4)

// Which kernels run. `reference` is the plain scalar definition; `fast` the vectorized CPU kernels
// (same output bit for bit); `cuda` takes device pointers (the cuda backend, libmlsys_cuda.so).
enum class Impl { reference, fast, cuda };
Impl parse_impl(const std::string& s);
const char* to_string(Impl i);
// The implementation that runs on memory of device `d` (the fast CPU kernels on the host, the CUDA
// kernels on a GPU): callers pick codecs by where their data is, never by a device check of their own.
Impl impl_for(const Device& d);

struct CodecParams {
  MetaPrecision meta = MetaPrecision::fp16;  // SR codecs only
  Impl impl = Impl::fast;
  void* cuda_stream = nullptr;  // Impl::cuda: the cudaStream_t to run on (nullptr = default stream)
};

// What a codec is, so that callers find one by what they need instead of by name.
struct CodecTraits {
  int bits = 32;            // bits per value on the wire, metadata excluded
  bool stochastic = false;  // stochastic rounding: unbiased, E[decode(encode(x))] = x; keyed by a seed
  bool lossless = false;    // decode(encode(x)) == x bit for bit
  bool device = false;      // has CUDA kernels (Impl::cuda)
};

class Codec {
 public:
  virtual ~Codec() = default;
  virtual std::string name() const = 0;  // registry name, e.g. "sr1"
  virtual int bits() const = 0;          // bits per value on the wire, metadata excluded
  virtual bool stochastic() const { return false; }
  virtual bool lossless() const { return false; }
  virtual bool device() const { return false; }  // CUDA kernels exist (else Impl::cuda is refused)
  // The wire bytes are the floats themselves (fp32): a collective may send from the source rows
  // and receive into the destination rows, without an encode or decode pass over the data.
  virtual bool passthrough() const { return false; }
  CodecTraits traits() const { return {bits(), stochastic(), lossless(), device()}; }
  virtual Impl impl() const = 0;
  // Exact size of encode(rows, cols) output in bytes.
  virtual size_t wire_bytes(size_t rows, size_t cols) const = 0;
  // x: rows*cols floats (row-major) -> out: wire_bytes(rows, cols) bytes. `seed` keys the random
  // stream (ignored by deterministic codecs). With Impl::cuda both pointers are device pointers.
  virtual void encode(const float* x, size_t rows, size_t cols, uint64_t seed, uint8_t* out) const = 0;
  virtual void decode(const uint8_t* in, size_t rows, size_t cols, float* out) const = 0;

  size_t raw_bytes(size_t rows, size_t cols) const { return rows * cols * sizeof(float); }
};

using CodecRegistry = Registry<Codec, const CodecParams&>;
CodecRegistry& codec_registry();

// Codec by registry name ("fp32", "fp16", "bf16", "sr1", "sr2", "sr4", "sr8", "rn1", ...).
std::unique_ptr<Codec> make_codec(const std::string& name, const CodecParams& params = {});

// The codec table: every registered codec with its description and traits, in name order.
struct CodecInfo {
  std::string name, description;
  CodecTraits traits;
};
std::vector<CodecInfo> codec_table();

// Exchanges of training data (halo features and gradients, quantized all-reduce) must not bias
// what they carry: a codec is unbiased when it rounds stochastically or is lossless. These are the
// widths the table offers so (sorted), and the one codec of a width; ConfigError naming the widths
// on offer when there is none, or the codecs when several qualify.
std::vector<int> unbiased_widths();
std::vector<CodecInfo> unbiased_codecs(int bits);
std::unique_ptr<Codec> unbiased_codec(int bits, const CodecParams& params = {});
// The unbiased widths as a bit-width key's choices ("1" -> "sr1: <its description>").
std::vector<config::Choice> unbiased_width_choices();

}  // namespace mlsys::quant
