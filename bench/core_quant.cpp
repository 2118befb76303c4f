// Quantize+pack and unpack+dequantize throughput of every codec against memcpy of the same fp32
// buffer, measured in the same run on one core (the kernels are single-threaded per call). On a
// shared machine the memory bandwidth drifts, so each codec's reps alternate with memcpy reps and
// its ratio is taken against the memcpy best of those same reps.
// Throughput counts fp32 bytes (rows * cols * 4) per second for both directions, so a codec at
// "1.0x memcpy" processes a tensor as fast as copying it. Target: sr1 at >= 0.5x memcpy. rn1/rn8
// (round to nearest, the same format) show what the stochastic rule's hashing costs.
//   bench_core_quant [rows=131072] [cols=128] [reps=10]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/quant/codec.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/rng.hpp"

using namespace mlsys;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

template <class Fn>
double best_of(int reps, Fn&& fn) {
  fn();  // warm-up (page faults)
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = now();
    fn();
    best = std::min(best, now() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 131072;
  const size_t cols = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 128;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 10;
  const size_t n = rows * cols, raw = n * 4;
  std::vector<float> x(n), y(n), copy(n);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      x[r * cols + c] = 2.0f * quant::rng_uniform(quant::rng_bits(quant::rng_row_key(1, r), uint32_t(c))) - 1.0f;

  double t_copy = best_of(reps, [&] { std::memcpy(copy.data(), x.data(), raw); });
  std::printf("core_quant: %zu rows x %zu cols (%.0f MiB fp32), best of %d, one core, SIMD kernels: %s\n", rows, cols,
              double(raw) / 1048576.0, reps, quant::kernels::fast_kernels_vectorized() ? "AVX2" : "none (reference)");
  std::printf("memcpy of the fp32 buffer: %.2f GB/s (best of %d at start)\n\n", double(raw) / t_copy / 1e9, reps);
  std::printf("%-6s %-9s %-5s %7s %11s %11s %9s %11s %9s\n", "codec", "impl", "meta", "ratio", "memcpy GB/s",
              "encode GB/s", "x memcpy", "decode GB/s", "x memcpy");
  for (std::string name : {"sr1", "sr2", "sr4", "sr8", "rn1", "rn8", "fp16", "bf16", "fp32"}) {
    for (auto impl : {quant::Impl::fast, quant::Impl::reference}) {
      if (impl == quant::Impl::reference && name != "sr1" && name != "sr8") continue;
      quant::CodecParams p;
      p.impl = impl;
      auto codec = quant::make_codec(name, p);
      std::vector<uint8_t> wire(codec->wire_bytes(rows, cols));
      uint64_t seed = 0;
      double te = 1e30, td = 1e30, tc = 1e30;
      codec->encode(x.data(), rows, cols, seed, wire.data());  // warm-up (page faults)
      codec->decode(wire.data(), rows, cols, y.data());
      for (int i = 0; i < reps; ++i) {
        tc = std::min(tc, best_of(1, [&] { std::memcpy(copy.data(), x.data(), raw); }));
        te = std::min(te, best_of(1, [&] { codec->encode(x.data(), rows, cols, ++seed, wire.data()); }));
        td = std::min(td, best_of(1, [&] { codec->decode(wire.data(), rows, cols, y.data()); }));
      }
      const double copy_gbs = double(raw) / tc / 1e9;
      double enc = double(raw) / te / 1e9, dec = double(raw) / td / 1e9;
      const bool per_row_meta = codec->wire_bytes(1, 0) > 0;  // the sr/rn format: metadata even for no columns
      std::printf("%-6s %-9s %-5s %6.1fx %11.2f %11.2f %9.2f %11.2f %9.2f\n", name.c_str(), quant::to_string(impl),
                  per_row_meta ? quant::to_string(p.meta) : "-", double(raw) / double(wire.size()), copy_gbs,
                  enc, enc / copy_gbs, dec, dec / copy_gbs);
    }
  }
  return 0;
}
