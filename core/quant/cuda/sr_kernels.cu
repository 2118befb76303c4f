// CUDA kernels of the codecs. They share the per-value arithmetic of sr_format.hpp / half.hpp and
// the rounding rules' thresholds (rounding/*.hpp, MLSYS_HD) with the reference (explicit _rn
// intrinsics, no FMA contraction), so their output is the reference's bit for bit. The encode
// kernels are templates on the rule, instantiated for every rule of RoundingRules (rounding.hpp).
//
// SR, fused row kernels (cols % 8 == 0, so every row's payload starts on a byte boundary and a
// pair of float4s is exactly `bits` whole bytes; encode also needs x 16-byte aligned): a row belongs
// to a segment of `seg` lanes of one warp (a power of two >= 2; narrow rows share a warp, so the
// per-row metadata arithmetic runs for several rows at once). Lane `sub` of a segment owns the
// row's float4s ("quads") sub, sub + seg, ..., so every warp access is contiguous. Encode reads the
// row once into registers (up to kQuadsPerLane quads per lane), reduces min/max in the segment,
// computes the metadata in each lane and stores each quad's 4 codes (1-bit: two lanes' nibbles make
// a byte). Decode reads the metadata once per row and writes each quad as one float4.
// SR, general kernels (any other shape, alignment or width 1..8): one warp per row writes the
// metadata, then one thread per payload byte computes the codes that overlap its byte (8/b of them
// when b divides 8; otherwise a code straddling two bytes is computed by both threads, which draw
// the same threshold, so no atomics are needed); decode is one thread per value.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/quant/cuda/cuda_codec_kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/quant/sr_format.hpp"
#include "core/util/error.hpp"

namespace mlsys::quant::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = kThreads / kWarp;
constexpr unsigned kFullMask = 0xffffffffu;
// Quads (float4s) per lane that the fused encode holds in registers between min/max and packing
// (wider rows read the rest twice); also the quads per lane that lanes_per_row aims at.
constexpr int kQuadsPerLane = 8;

// Throws on failure, after clearing the (non-sticky) error so that later calls are not blamed for it.
void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  throw Error(std::string("CUDA codec ") + what + ": " + cudaGetErrorString(e));
}

unsigned blocks_for(size_t n, size_t per_block) { return unsigned((n + per_block - 1) / per_block); }

bool aligned(const void* p, size_t n) { return reinterpret_cast<uintptr_t>(p) % n == 0; }

bool fused_layout(size_t cols, int bits) { return cols % 8 == 0 && (bits == 1 || bits == 2 || bits == 4 || bits == 8); }

// Lanes per row in the fused kernels: the power of two in [2, 32] that gives each lane about
// kQuadsPerLane quads. At least 2, so that the two quads of a 1-bit byte are in adjacent lanes.
unsigned lanes_per_row(size_t cols) {
  const size_t want = (cols / 4 + kQuadsPerLane - 1) / kQuadsPerLane;
  unsigned seg = 2;
  while (seg < unsigned(kWarp) && seg < want) seg <<= 1;
  return seg;
}

// Blocks of `kernel` resident at once on one SM (callers keep it in a static: the query is not
// free, and any grid size is correct, so a device of another model only costs speed).
template <class Kernel>
int blocks_per_sm(Kernel kernel) {
  int n = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, kThreads, 0), "occupancy");
  return std::max(n, 1);
}

// Blocks for a grid-stride kernel: those resident at once on the current device, fewer if the rows
// need fewer warps (a second, partial wave of blocks would run at low occupancy).
unsigned resident_blocks(int per_sm, size_t warps_needed) {
  int dev = 0, sms = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count");
  const size_t want = (warps_needed + kWarpsPerBlock - 1) / kWarpsPerBlock;
  return unsigned(std::min(want, size_t(std::max(sms, 1)) * size_t(per_sm)));
}

// kBytes bytes of v, little-endian like the wire (the GPU is little-endian), in the widest accesses
// p's alignment allows (a row's payload may start at any multiple of `bits` bytes).
template <int kBytes>
using Word = std::conditional_t<kBytes == 2, uint16_t, std::conditional_t<kBytes == 4, uint32_t, uint64_t>>;

template <int kBytes>
__device__ void store_bytes(uint8_t* p, uint64_t v) {
  if constexpr (kBytes == 1) {
    *p = uint8_t(v);
  } else if (reinterpret_cast<uintptr_t>(p) % kBytes == 0) {
    *reinterpret_cast<Word<kBytes>*>(p) = Word<kBytes>(v);
  } else {
    store_bytes<kBytes / 2>(p, v);
    store_bytes<kBytes / 2>(p + kBytes / 2, v >> (4 * kBytes));
  }
}

template <int kBytes>
__device__ uint64_t load_bytes(const uint8_t* p) {
  if constexpr (kBytes == 1) {
    return *p;
  } else {
    if (reinterpret_cast<uintptr_t>(p) % kBytes == 0) return *reinterpret_cast<const Word<kBytes>*>(p);
    return load_bytes<kBytes / 2>(p) | (load_bytes<kBytes / 2>(p + kBytes / 2) << (4 * kBytes));
  }
}

// The reference's comparisons: a NaN is ignored unless mn/mx start as NaN (the row's first value).
__device__ void min_max(float v, float& mn, float& mx) {
  mn = v < mn ? v : mn;
  mx = v > mx ? v : mx;
}
__device__ void min_max(float4 v, float& mn, float& mx) {
  min_max(v.x, mn, mx);
  min_max(v.y, mn, mx);
  min_max(v.z, mn, mx);
  min_max(v.w, mn, mx);
}

// A clamped code (an integral float in [0, 255]) as an integer: exact, since t + 2^23 keeps t in
// the low mantissa bits; an add instead of a float-to-int conversion, whose unit is the busiest.
__device__ uint32_t code_bits(float t) { return float_bits(__fadd_rn(t, 8388608.0f)) - 0x4b000000u; }

// Codes of one quad (columns c0..c0+3), code k at bit k*kBits. meta.mn / meta.s are the values
// decoded from the stored fields (sr_row_meta), i.e. what the general pack kernel reads back.
template <class Rule, int kBits>
__device__ uint32_t quad_codes(float4 v, size_t c0, const SrRowMeta& meta, uint32_t key) {
  if (meta.constant) return c0 == 0 ? meta.first_code : 0u;
  const float levels = float((1u << kBits) - 1u);
  const float e[4] = {v.x, v.y, v.z, v.w};
  uint32_t codes = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float u = Rule::threshold(key, uint32_t(c0 + size_t(k)));
    codes |= code_bits(sr_quantize(e[k], meta.mn, meta.s, u, levels)) << (k * kBits);
  }
  return codes;
}

// Stores quad q's codes (4*kBits bits) into the row's payload. 1-bit: even quad q is in an even
// lane and quad q + 1 in the next lane (seg is even), so all lanes must call this together; both
// quads of a byte are active or neither (quads per row is even).
template <int kBits>
__device__ void put_quad_codes(uint8_t* row_payload, size_t q, uint32_t codes, bool active) {
  if constexpr (kBits == 1) {
    const uint32_t next = __shfl_down_sync(kFullMask, codes, 1);
    if (active && q % 2 == 0) row_payload[q / 2] = uint8_t(codes | (next << 4));
  } else if (active) {
    store_bytes<kBits / 2>(row_payload + q * (kBits / 2), codes);
  }
}

// Quad q's 4 codes from the row's payload (the inverse of put_quad_codes).
template <int kBits>
__device__ uint32_t get_quad_codes(const uint8_t* row_payload, size_t q) {
  if constexpr (kBits == 1) {
    return (uint32_t(row_payload[q / 2]) >> (4 * (q % 2))) & 0xfu;
  } else {
    return uint32_t(load_bytes<kBits / 2>(row_payload + q * (kBits / 2)));
  }
}

// Fused encode (fused_layout, x 16-byte aligned), kWarp/seg rows per warp and step. Every loop that
// reaches a shuffle has the same trip count in all lanes (it depends on row0, seg and cols only);
// lanes past the last row (whole segments) join the shuffles but load and store nothing.
template <class Rule, int kBits>
__global__ void __launch_bounds__(kThreads)
    sr_encode_rows_kernel(const float* x, size_t rows, size_t cols, unsigned seg, MetaPrecision m, uint64_t seed,
                          uint8_t* out) {
  const unsigned lane = threadIdx.x % kWarp, sub = lane % seg, seg_lead = lane - sub;
  const size_t quads = cols / 4, rows_per_warp = kWarp / seg, fb = meta_field_bytes(m);
  const size_t warp = (size_t(blockIdx.x) * kThreads + threadIdx.x) / kWarp;
  const size_t step = size_t(gridDim.x) * kWarpsPerBlock * rows_per_warp;
  uint8_t* payload = out + sr_meta_bytes(rows, m);
  for (size_t row0 = warp * rows_per_warp; row0 < rows; row0 += step) {
    const size_t row = row0 + lane / seg;
    const bool live = row < rows;
    const float4* r = reinterpret_cast<const float4*>(x + (live ? row : row0) * cols);
    float4 held[kQuadsPerLane];
#pragma unroll
    for (int j = 0; j < kQuadsPerLane; ++j) {
      const size_t q = sub + size_t(j) * seg;
      held[j] = live && q < quads ? r[q] : make_float4(0, 0, 0, 0);
    }
    // The segment's lead lane holds quad 0: its first value is the row's first, where every lane
    // starts min/max as the reference does.
    const float first = __shfl_sync(kFullMask, held[0].x, seg_lead);
    float mn = first, mx = first;
#pragma unroll
    for (int j = 0; j < kQuadsPerLane; ++j)
      if (live && sub + size_t(j) * seg < quads) min_max(held[j], mn, mx);
    for (size_t q = sub + size_t(kQuadsPerLane) * seg; live && q < quads; q += seg) min_max(r[q], mn, mx);
    for (unsigned o = seg / 2; o > 0; o >>= 1) {  // offsets below seg stay inside the segment
      const float a = __shfl_xor_sync(kFullMask, mn, o), b = __shfl_xor_sync(kFullMask, mx, o);
      mn = a < mn ? a : mn;
      mx = b > mx ? b : mx;
    }
    // One value per segment (lanes may differ in the sign of a zero, which sr_row_meta ignores anyway).
    mn = __shfl_sync(kFullMask, mn, seg_lead);
    mx = __shfl_sync(kFullMask, mx, seg_lead);
    const SrRowMeta meta = sr_row_meta(mn, mx, first, kBits, m);
    if (live && sub == 0) {
      store_field(out + row * 2 * fb, meta.min_field, fb);
      store_field(out + row * 2 * fb + fb, meta.scale_field, fb);
    }
    const uint32_t key = Rule::row_key(seed, row);
    uint8_t* dst = payload + (live ? row : row0) * quads * kBits / 2;  // row * cols * kBits / 8
#pragma unroll
    for (int j = 0; j < kQuadsPerLane; ++j) {
      if (size_t(j) * seg >= quads) break;
      const size_t q = sub + size_t(j) * seg;
      const bool active = live && q < quads;
      put_quad_codes<kBits>(dst, q, active ? quad_codes<Rule, kBits>(held[j], 4 * q, meta, key) : 0u, active);
    }
    for (size_t base = size_t(kQuadsPerLane) * seg; base < quads; base += seg) {
      const size_t q = base + sub;
      const bool active = live && q < quads;
      put_quad_codes<kBits>(dst, q, active ? quad_codes<Rule, kBits>(r[q], 4 * q, meta, key) : 0u, active);
    }
  }
}

// Fused decode (fused_layout): segments as in the encode, no shuffles. vec_out: out is 16-byte
// aligned (every row is then, as cols % 8 == 0).
template <int kBits>
__global__ void __launch_bounds__(kThreads)
    sr_decode_rows_kernel(const uint8_t* in, size_t rows, size_t cols, unsigned seg, MetaPrecision m, bool vec_out,
                          float* out) {
  const unsigned lane = threadIdx.x % kWarp, sub = lane % seg;
  const size_t quads = cols / 4, rows_per_warp = kWarp / seg, fb = meta_field_bytes(m);
  const size_t warp = (size_t(blockIdx.x) * kThreads + threadIdx.x) / kWarp;
  const size_t step = size_t(gridDim.x) * kWarpsPerBlock * rows_per_warp;
  const uint8_t* payload = in + sr_meta_bytes(rows, m);
  const uint32_t mask = (1u << kBits) - 1u;
  for (size_t row = warp * rows_per_warp + lane / seg; row < rows; row += step) {
    const uint32_t min_field = load_field(in + row * 2 * fb, fb), scale_field = load_field(in + row * 2 * fb + fb, fb);
    const uint8_t* src = payload + row * quads * kBits / 2;
    float* dst = out + row * cols;
    const bool constant = sr_is_constant_field(scale_field, m);
    const float cv = sr_constant_value(min_field, scale_field, uint32_t(src[0]) & mask, m);
    const float mn = meta_field_value(min_field, m), s = meta_field_value(scale_field, m);
    for (size_t q = sub; q < quads; q += seg) {
      const uint32_t codes = get_quad_codes<kBits>(src, q);
      float y[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) y[k] = constant ? cv : sr_dequantize((codes >> (k * kBits)) & mask, mn, s);
      if (vec_out) {
        reinterpret_cast<float4*>(dst)[q] = make_float4(y[0], y[1], y[2], y[3]);
      } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) dst[4 * q + k] = y[k];
      }
    }
  }
}

__global__ void sr_meta_kernel(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint8_t* out) {
  const size_t row = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const float* r = x + row * cols;
  float mn = r[0], mx = r[0];
  for (size_t c = lane; c < cols; c += 32) min_max(r[c], mn, mx);
  for (int o = 16; o > 0; o >>= 1) {
    float a = __shfl_down_sync(kFullMask, mn, o), b = __shfl_down_sync(kFullMask, mx, o);
    mn = a < mn ? a : mn;
    mx = b > mx ? b : mx;
  }
  if (lane == 0) {
    SrRowMeta meta = sr_row_meta(mn, mx, r[0], bits, m);
    const size_t fb = meta_field_bytes(m);
    store_field(out + row * 2 * fb, meta.min_field, fb);
    store_field(out + row * 2 * fb + fb, meta.scale_field, fb);
  }
}

template <class Rule>
__global__ void sr_pack_kernel(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed,
                               uint8_t* out) {
  const size_t byte = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (byte >= sr_payload_bytes(rows, cols, bits)) return;
  const size_t fb = meta_field_bytes(m), total = rows * cols;
  const float levels = float((1u << bits) - 1u);
  // The codes overlapping the byte's bits [8 * byte, 8 * byte + 8) are consecutive elements: one
  // division, then (r, c) steps along.
  const size_t past = (8 * byte + 8 + size_t(bits) - 1) / size_t(bits), end = past < total ? past : total;
  size_t i = 8 * byte / size_t(bits), r = i / cols, c = i - r * cols;
  uint32_t acc = 0;
  for (; i < end; ++i) {
    const uint32_t min_field = load_field(out + r * 2 * fb, fb), scale_field = load_field(out + r * 2 * fb + fb, fb);
    uint32_t q = 0;
    if (sr_is_constant_field(scale_field, m)) {
      if (c == 0 && m != MetaPrecision::fp32) q = (float_bits(x[r * cols]) >> 15) & 1u;
    } else {
      const float u = Rule::threshold(Rule::row_key(seed, r), uint32_t(c));
      q = uint32_t(sr_quantize(x[i], meta_field_value(min_field, m), meta_field_value(scale_field, m), u, levels));
    }
    const int at = int(int64_t(i * size_t(bits)) - int64_t(8 * byte));  // code's bit 0 relative to the byte's
    acc |= at >= 0 ? q << at : q >> -at;
    if (++c == cols) {
      c = 0;
      ++r;
    }
  }
  out[sr_meta_bytes(rows, m) + byte] = uint8_t(acc);
}

__global__ void sr_unpack_kernel(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  const size_t fb = meta_field_bytes(m), r = i / cols;
  const uint8_t* payload = in + sr_meta_bytes(rows, m);
  const uint32_t min_field = load_field(in + r * 2 * fb, fb), scale_field = load_field(in + r * 2 * fb + fb, fb);
  if (sr_is_constant_field(scale_field, m)) {
    out[i] = sr_constant_value(min_field, scale_field, sr_get_code(payload, r * cols, bits), m);
    return;
  }
  const float mn = meta_field_value(min_field, m), s = meta_field_value(scale_field, m);
  out[i] = sr_dequantize(sr_get_code(payload, i, bits), mn, s);
}

__global__ void half_encode_kernel(const float* x, size_t n, bool bf16, uint8_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint16_t h = bf16 ? f32_to_bf16(x[i]) : f32_to_f16(x[i]);
  out[2 * i] = uint8_t(h);
  out[2 * i + 1] = uint8_t(h >> 8);
}

__global__ void half_decode_kernel(const uint8_t* in, size_t n, bool bf16, float* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint16_t h = uint16_t(in[2 * i] | (in[2 * i + 1] << 8));
  out[i] = bf16 ? bf16_to_f32(h) : f16_to_f32(h);
}

template <class Rule, int kBits>
void encode_rows(const float* x, size_t rows, size_t cols, MetaPrecision m, uint64_t seed, uint8_t* out,
                 cudaStream_t s) {
  static const int per_sm = blocks_per_sm(sr_encode_rows_kernel<Rule, kBits>);
  const unsigned seg = lanes_per_row(cols);
  const size_t rows_per_warp = kWarp / seg, warps = (rows + rows_per_warp - 1) / rows_per_warp;
  sr_encode_rows_kernel<Rule, kBits>
      <<<resident_blocks(per_sm, warps), kThreads, 0, s>>>(x, rows, cols, seg, m, seed, out);
  check(cudaGetLastError(), "sr encode rows kernel");
}

template <int kBits>
void decode_rows(const uint8_t* in, size_t rows, size_t cols, MetaPrecision m, float* out, cudaStream_t s) {
  static const int per_sm = blocks_per_sm(sr_decode_rows_kernel<kBits>);
  const unsigned seg = lanes_per_row(cols);
  const size_t rows_per_warp = kWarp / seg, warps = (rows + rows_per_warp - 1) / rows_per_warp;
  sr_decode_rows_kernel<kBits>
      <<<resident_blocks(per_sm, warps), kThreads, 0, s>>>(in, rows, cols, seg, m, aligned(out, 16), out);
  check(cudaGetLastError(), "sr decode rows kernel");
}

template <class Rule>
void encode(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed, uint8_t* out,
            cudaStream_t s) {
  if (fused_layout(cols, bits) && aligned(x, 16)) {
    switch (bits) {
      case 1:
        return encode_rows<Rule, 1>(x, rows, cols, m, seed, out, s);
      case 2:
        return encode_rows<Rule, 2>(x, rows, cols, m, seed, out, s);
      case 4:
        return encode_rows<Rule, 4>(x, rows, cols, m, seed, out, s);
      case 8:
        return encode_rows<Rule, 8>(x, rows, cols, m, seed, out, s);
    }
  }
  sr_meta_kernel<<<blocks_for(rows * 32, kThreads), kThreads, 0, s>>>(x, rows, cols, bits, m, out);
  check(cudaGetLastError(), "sr meta kernel");
  size_t bytes = sr_payload_bytes(rows, cols, bits);
  sr_pack_kernel<Rule><<<blocks_for(bytes, kThreads), kThreads, 0, s>>>(x, rows, cols, bits, m, seed, out);
  check(cudaGetLastError(), "sr pack kernel");
}

}  // namespace

namespace cuda {

void sr_encode(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, int rule, uint64_t seed,
               uint8_t* out, void* stream) {
  if (rows == 0 || cols == 0) return;
  with_rounding_rule(rule, [&](auto r) {
    encode<decltype(r)>(x, rows, cols, bits, m, seed, out, static_cast<cudaStream_t>(stream));
  });
}

void sr_decode(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out, void* stream) {
  if (rows == 0 || cols == 0) return;
  auto s = static_cast<cudaStream_t>(stream);
  if (fused_layout(cols, bits)) {
    switch (bits) {
      case 1:
        return decode_rows<1>(in, rows, cols, m, out, s);
      case 2:
        return decode_rows<2>(in, rows, cols, m, out, s);
      case 4:
        return decode_rows<4>(in, rows, cols, m, out, s);
      case 8:
        return decode_rows<8>(in, rows, cols, m, out, s);
    }
  }
  sr_unpack_kernel<<<blocks_for(rows * cols, kThreads), kThreads, 0, s>>>(in, rows, cols, bits, m, out);
  check(cudaGetLastError(), "sr unpack kernel");
}

void half_encode(const float* x, size_t n, bool bf16, uint8_t* out, void* stream) {
  if (!n) return;
  half_encode_kernel<<<blocks_for(n, kThreads), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(x, n, bf16, out);
  check(cudaGetLastError(), "half encode kernel");
}

void half_decode(const uint8_t* in, size_t n, bool bf16, float* out, void* stream) {
  if (!n) return;
  half_decode_kernel<<<blocks_for(n, kThreads), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(in, n, bf16, out);
  check(cudaGetLastError(), "half decode kernel");
}

void copy(const void* src, size_t bytes, void* dst, void* stream) {
  if (bytes) check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)), "copy");
}

}  // namespace cuda
}  // namespace mlsys::quant::kernels
