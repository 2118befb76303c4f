// CUDA kernels of the codecs. They share the per-value arithmetic of sr_format.hpp / half.hpp /
// rng.hpp with the reference (explicit _rn intrinsics, no FMA contraction), so their output is
// the reference's bit for bit. SR encode runs in two kernels on the caller's stream: one warp per
// row computes min/max and writes the metadata, then one thread per payload byte computes its
// 8/b codes (a code never straddles a byte, so no atomics are needed).
#include <cuda_runtime.h>

#include <string>

#include "core/quant/cuda/cuda_codec_kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/quant/sr_format.hpp"
#include "core/util/error.hpp"

namespace mlsys::quant::kernels {
namespace {

constexpr int kThreads = 256;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA codec ") + what + ": " + cudaGetErrorString(e));
}

unsigned blocks_for(size_t n, size_t per_block) { return unsigned((n + per_block - 1) / per_block); }

__global__ void sr_meta_kernel(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint8_t* out) {
  const size_t row = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  const float* r = x + row * cols;
  float mn = r[0], mx = r[0];
  for (size_t c = lane; c < cols; c += 32) {
    float v = r[c];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  for (int o = 16; o > 0; o >>= 1) {
    float a = __shfl_down_sync(0xffffffffu, mn, o), b = __shfl_down_sync(0xffffffffu, mx, o);
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

__global__ void sr_pack_kernel(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed,
                               uint8_t* out) {
  const size_t byte = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (byte >= sr_payload_bytes(rows, cols, bits)) return;
  const size_t fb = meta_field_bytes(m), total = rows * cols;
  const int per = 8 / bits;
  const float levels = float((1u << bits) - 1u);
  uint32_t acc = 0;
  for (int k = 0; k < per; ++k) {
    const size_t i = byte * size_t(per) + size_t(k);
    if (i >= total) break;
    const size_t r = i / cols, c = i % cols;
    const uint32_t min_field = load_field(out + r * 2 * fb, fb), scale_field = load_field(out + r * 2 * fb + fb, fb);
    uint32_t q = 0;
    if (sr_is_constant_field(scale_field, m)) {
      if (c == 0 && m != MetaPrecision::fp32) q = (float_bits(x[r * cols]) >> 15) & 1u;
    } else {
      float u = rng_uniform(rng_bits(rng_row_key(seed, r), uint32_t(c)));
      q = uint32_t(sr_quantize(x[i], meta_field_value(min_field, m), meta_field_value(scale_field, m), u, levels));
    }
    acc |= q << (k * bits);
  }
  out[sr_meta_bytes(rows, m) + byte] = uint8_t(acc);
}

__global__ void sr_unpack_kernel(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  const size_t fb = meta_field_bytes(m), r = i / cols;
  const uint8_t* payload = in + sr_meta_bytes(rows, m);
  const uint32_t mask = (1u << bits) - 1u;
  const uint32_t min_field = load_field(in + r * 2 * fb, fb), scale_field = load_field(in + r * 2 * fb + fb, fb);
  if (sr_is_constant_field(scale_field, m)) {
    size_t bit0 = r * cols * size_t(bits);
    uint32_t first = (uint32_t(payload[bit0 / 8]) >> (bit0 % 8)) & mask;
    out[i] = sr_constant_value(min_field, scale_field, first, m);
    return;
  }
  size_t bit = i * size_t(bits);
  uint32_t q = (uint32_t(payload[bit / 8]) >> (bit % 8)) & mask;
  out[i] = sr_dequantize(q, meta_field_value(min_field, m), meta_field_value(scale_field, m));
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

}  // namespace

namespace cuda {

void sr_encode(const float* x, size_t rows, size_t cols, int bits, MetaPrecision m, uint64_t seed, uint8_t* out,
                    void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  sr_meta_kernel<<<blocks_for(rows * 32, kThreads), kThreads, 0, s>>>(x, rows, cols, bits, m, out);
  check(cudaGetLastError(), "sr meta kernel");
  size_t bytes = sr_payload_bytes(rows, cols, bits);
  sr_pack_kernel<<<blocks_for(bytes, kThreads), kThreads, 0, s>>>(x, rows, cols, bits, m, seed, out);
  check(cudaGetLastError(), "sr pack kernel");
}

void sr_decode(const uint8_t* in, size_t rows, size_t cols, int bits, MetaPrecision m, float* out, void* stream) {
  sr_unpack_kernel<<<blocks_for(rows * cols, kThreads), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      in, rows, cols, bits, m, out);
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
