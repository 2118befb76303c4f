// 1-bit stochastic quantize + pack (codec sr1, fp16 metadata) on a cuda context against device
// memcpy of the same input. Effective bandwidth counts fp32 input read + packed output written;
// the memcpy counts read + write. Target (issue #17): >= 50% of the memcpy bandwidth.
// Also checks that the CUDA encoding equals the CPU kernels' bytes (exit 1 otherwise).
//   bench_gpu_quant [rows=1048576] [cols=128] [reps=20]
#include <cstring>
#include <vector>

#include "bench/gpu_common.hpp"
#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/tensor/tensor.hpp"

using namespace mlsys;
using namespace mlsys::bench;

namespace {
constexpr double kTarget = 0.50;
}

int main(int argc, char** argv) {
  const size_t rows = static_cast<size_t>(arg_int(argc, argv, 1, 1 << 20));
  const size_t cols = static_cast<size_t>(arg_int(argc, argv, 2, 128));
  const int reps = arg_int(argc, argv, 3, 20);
  auto ctx_owner = cuda_context_or_skip("bench_gpu_quant");
  DeviceContext& ctx = *ctx_owner;
  auto dev_codec = quant::make_codec("sr1", quant::params_for(ctx));
  auto cpu_codec = quant::make_codec("sr1");
  std::vector<float> v(rows * cols);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 2654435761u) % 1009) / 1009.f - 0.5f;
  Tensor x = Tensor::from_vector(v, Shape{static_cast<int64_t>(rows), static_cast<int64_t>(cols)}).to(ctx);
  const size_t wire = dev_codec->wire_bytes(rows, cols);
  DeviceContext::Scratch out(ctx, wire);
  const uint64_t seed = 42;

  // Same bytes as the CPU kernels (counter-based random stream: bit-identical by design).
  dev_codec->encode(x.data<float>(), rows, cols, seed, out.as<uint8_t>());
  ctx.synchronize();
  std::vector<uint8_t> got(wire), want(wire);
  check_cuda(cudaMemcpy(got.data(), out.get(), wire, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cpu_codec->encode(v.data(), rows, cols, seed, want.data());
  if (std::memcmp(got.data(), want.data(), wire) != 0) {
    std::printf("FAIL: the CUDA sr1 encoding differs from the CPU kernels' bytes\n");
    return 1;
  }
  std::printf("check: CUDA sr1 encoding equals the CPU bytes (%zu bytes)\n", wire);

  const double copy_bw = copy_bandwidth(ctx, x.nbytes(), reps);
  const double t = best_seconds(stream_of(ctx), reps,
                                [&] { dev_codec->encode(x.data<float>(), rows, cols, seed, out.as<uint8_t>()); });
  const double bw = static_cast<double>(x.nbytes() + wire) / t;
  std::printf("%zu x %zu f32 -> %zu bytes: quantize+pack %.3f ms, %.1f GB/s effective; memcpy %.1f GB/s (%.0f%%)\n",
              rows, cols, wire, 1e3 * t, bw / 1e9, copy_bw / 1e9, 100 * bw / copy_bw);
  result("device_memcpy_bandwidth", copy_bw / 1e9, "GB/s");
  result("quantize_1bit_effective_bandwidth", bw / 1e9, "GB/s", bw / copy_bw, kTarget);
  return 0;
}
