// Stochastic-rounding quantize + pack (codecs sr1, sr2, sr4, sr8, fp16 metadata) and its decode on
// a cuda context, against device memcpy of the same input. Effective bandwidth counts the bytes
// read plus written (the fp32 matrix and the wire bytes); the memcpy counts read + write. Target
// (issues #17, #27): >= 50% of the memcpy bandwidth, for encode and decode at every width.
// Also checks that the CUDA encoding equals the CPU kernels' bytes and that the CUDA decoding
// equals the CPU decoding bit for bit (exit 1 otherwise).
//   bench_gpu_quant [rows=1048576] [cols=128] [reps=20]
#include <cstring>
#include <string>
#include <vector>

#include "bench/gpu_common.hpp"
#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/tensor/tensor.hpp"

using namespace mlsys;
using namespace mlsys::bench;

namespace {

constexpr double kTarget = 0.50;
constexpr int kWidths[] = {1, 2, 4, 8};

template <class T>
std::vector<T> to_host(const void* device, size_t n) {
  std::vector<T> v(n);
  check_cuda(cudaMemcpy(v.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = static_cast<size_t>(arg_int(argc, argv, 1, 1 << 20));
  const size_t cols = static_cast<size_t>(arg_int(argc, argv, 2, 128));
  const int reps = arg_int(argc, argv, 3, 20);
  auto ctx_owner = cuda_context_or_skip("bench_gpu_quant");
  DeviceContext& ctx = *ctx_owner;
  const Shape shape{static_cast<int64_t>(rows), static_cast<int64_t>(cols)};
  std::vector<float> v(rows * cols);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 2654435761u) % 1009) / 1009.f - 0.5f;
  Tensor x = Tensor::from_vector(v, shape).to(ctx);
  Tensor y = Tensor::empty(shape, DType::f32, ctx);
  const uint64_t seed = 42;

  const double copy_bw = copy_bandwidth(ctx, x.nbytes(), reps);
  std::printf("%zu x %zu f32 (%zu bytes): device memcpy %.1f GB/s\n", rows, cols, x.nbytes(), copy_bw / 1e9);
  result("device_memcpy_bandwidth", copy_bw / 1e9, "GB/s");

  bool all_equal = true;
  for (int bits : kWidths) {
    const std::string name = "sr" + std::to_string(bits);
    auto dev_codec = quant::make_codec(name, quant::params_for(ctx));
    auto cpu_codec = quant::make_codec(name);
    const size_t wire = dev_codec->wire_bytes(rows, cols);
    DeviceContext::Scratch out(ctx, wire);
    auto encode = [&] { dev_codec->encode(x.data<float>(), rows, cols, seed, out.as<uint8_t>()); };
    auto decode = [&] { dev_codec->decode(out.as<uint8_t>(), rows, cols, y.data<float>()); };

    // Same bytes and floats as the CPU kernels (counter-based random stream: bit-identical by design).
    encode();
    decode();
    ctx.synchronize();
    std::vector<uint8_t> want(wire);
    std::vector<float> want_y(v.size());
    cpu_codec->encode(v.data(), rows, cols, seed, want.data());
    cpu_codec->decode(want.data(), rows, cols, want_y.data());
    const bool enc_equal = to_host<uint8_t>(out.get(), wire) == want;
    const bool dec_equal =
        std::memcmp(to_host<float>(y.data<float>(), v.size()).data(), want_y.data(), v.size() * sizeof(float)) == 0;
    if (!enc_equal || !dec_equal) {
      std::printf("FAIL: the CUDA %s %s differs from the CPU kernels'\n", name.c_str(),
                  enc_equal ? "decoding" : "encoding");
      all_equal = false;
      continue;
    }
    std::printf("check: CUDA %s encoding and decoding equal the CPU kernels' (%zu bytes)\n", name.c_str(), wire);

    const double bytes = static_cast<double>(x.nbytes() + wire);
    const double t_enc = best_seconds(stream_of(ctx), reps, encode);
    const double t_dec = best_seconds(stream_of(ctx), reps, decode);
    const double bw_enc = bytes / t_enc, bw_dec = bytes / t_dec;
    std::printf(
        "%s -> %zu bytes: quantize+pack %.3f ms, %.1f GB/s (%.0f%% of memcpy); decode %.3f ms, %.1f GB/s (%.0f%%)\n",
        name.c_str(), wire, 1e3 * t_enc, bw_enc / 1e9, 100 * bw_enc / copy_bw, 1e3 * t_dec, bw_dec / 1e9,
        100 * bw_dec / copy_bw);
    result("quantize_" + std::to_string(bits) + "bit_effective_bandwidth", bw_enc / 1e9, "GB/s", bw_enc / copy_bw,
           kTarget);
    result("dequantize_" + std::to_string(bits) + "bit_effective_bandwidth", bw_dec / 1e9, "GB/s", bw_dec / copy_bw,
           kTarget);
  }
  return all_equal ? 0 : 1;
}
