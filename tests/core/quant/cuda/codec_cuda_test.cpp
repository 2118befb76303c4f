// CUDA codec kernels against the reference, bit for bit (skipped where the cuda backend is
// unavailable). Device memory comes from a DeviceContext, through the cuda plugin.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/quant/sr_format.hpp"
#include "tests/core/kernels/backend_test.hpp"
#include "tests/core/quant/quant_test_util.hpp"

using namespace mlsys;

namespace {
// The reference codec `name` with metadata precision `meta`, and the same codec on ctx's device.
std::pair<std::unique_ptr<quant::Codec>, std::unique_ptr<quant::Codec>> reference_and_device(const std::string& name,
                                                                                          quant::MetaPrecision meta,
                                                                                          DeviceContext& ctx) {
  quant::CodecParams rp;
  rp.impl = quant::Impl::reference;
  rp.meta = meta;
  return {quant::make_codec(name, rp), quant::make_codec(name, quant::params_for(ctx, rp))};
}
}  // namespace

TEST_CASE("quant/cuda: CUDA kernels agree bit for bit with the reference") {
  if (std::string why = test::cuda_missing(); !why.empty()) MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why);
  DeviceContext ctx(Device::cuda(0));
  const std::pair<size_t, size_t> shapes[] = {{1, 1}, {7, 13}, {17, 129}, {300, 128}, {2, 1000}};
  for (std::string name : {"sr1", "sr2", "sr4", "sr8", "fp16", "bf16", "fp32"})
    for (auto meta : {quant::MetaPrecision::fp16, quant::MetaPrecision::bf16, quant::MetaPrecision::fp32})
      for (auto [rows, cols] : shapes) {
        CAPTURE(name);
        CAPTURE(rows);
        CAPTURE(cols);
        auto [ref, dev] = reference_and_device(name, meta, ctx);
        REQUIRE(quant::runs_on(*dev, ctx.device()));
        auto x = test::quant_matrix(rows, cols, rows + cols);
        size_t wb = ref->wire_bytes(rows, cols), n = rows * cols;
        std::vector<uint8_t> wr(wb);
        std::vector<float> yr(n);
        ref->encode(x.data(), rows, cols, 5, wr.data());
        ref->decode(wr.data(), rows, cols, yr.data());
        Tensor dx = Tensor::from_vector(x).to(ctx);
        Tensor dw = Tensor::empty({int64_t(wb)}, DType::u8, ctx), dy = Tensor::empty({int64_t(n)}, DType::f32, ctx);
        dev->encode(dx.data<float>(), rows, cols, 5, dw.data<uint8_t>());
        dev->decode(dw.data<uint8_t>(), rows, cols, dy.data<float>());
        ctx.synchronize();
        auto wd = dw.to_vector<uint8_t>();
        auto yd = dy.to_vector<float>();
        CHECK(std::memcmp(wr.data(), wd.data(), wb) == 0);
        CHECK(std::memcmp(yr.data(), yd.data(), n * 4) == 0);
      }
}

namespace {

// quant_matrix with rows that the kernels' min/max must treat exactly like the reference's loop: a
// NaN (ignored by the comparisons; never in column 0, where it would become the row's metadata and
// the GPU, unlike the CPU, canonicalizes NaN payloads), infinities, a constant row of signed zeros
// (its first value's sign is kept) and a row whose minimum is -0 or +0 depending on the order of
// comparisons.
std::vector<float> sr_matrix(size_t rows, size_t cols, uint64_t seed) {
  auto x = test::quant_matrix(rows, cols, seed);
  const float inf = std::numeric_limits<float>::infinity();
  for (size_t r = 0; r < rows; ++r) {
    float* row = x.data() + r * cols;
    for (size_t c = 0; c < cols; ++c) {
      if (r % 8 == 0 && c > 0 && c == cols - 1) row[c] = std::numeric_limits<float>::quiet_NaN();
      if (r % 8 == 2 && c == cols / 2) row[c] = inf;
      if (r % 8 == 5 && c == 0) row[c] = -inf;
      if (r % 8 == 6) row[c] = c % 3 == 0 ? -0.0f : 0.0f;
      if (r % 8 == 7) row[c] = c % 4 == 1 ? -0.0f : c % 4 == 3 ? 0.0f : std::fabs(row[c]);
    }
  }
  return x;
}

// Values of `got` (from `offset` on) that differ from `want` in their bits, where any NaN equals any
// NaN: a row with an infinity may decode to inf - inf, whose NaN payload differs between CPU and GPU.
size_t float_mismatches(const std::vector<float>& want, const std::vector<float>& got, size_t offset) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const float a = want[i], b = got[offset + i];
    if (std::memcmp(&a, &b, sizeof a) != 0 && !(std::isnan(a) && std::isnan(b))) ++bad;
  }
  return bad;
}

}  // namespace

TEST_CASE("quant/cuda: SR kernels agree bit for bit with the reference on every layout and alignment") {
  if (std::string why = test::cuda_missing(); !why.empty()) MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why);
  DeviceContext ctx(Device::cuda(0));
  // cols % 8 == 0 takes the fused row kernels, other widths the general ones. The extra shapes: many
  // grid-stride steps with a partial last one (250001 x 8), lanes of a row owning different numbers
  // of float4s (9 x 72), float4s beyond those a lane holds in registers (7 x 1048).
  std::vector<std::pair<size_t, size_t>> shapes = {{250001, 8}, {9, 72}, {7, 1048}};
  for (size_t rows : {1, 33, 5000})
    for (size_t cols : {8, 128, 1024, 1, 13, 127}) shapes.emplace_back(rows, cols);
  // Element offsets of x, the wire and the decoded output from their (256-byte aligned) buffers:
  // aligned; fused encode and decode storing and loading through their unaligned paths; a 2-aligned
  // wire; x not 16-byte aligned (general encode).
  struct Offsets {
    size_t x, wire, y;
  };
  const Offsets offsets[] = {{0, 0, 0}, {0, 1, 1}, {0, 2, 0}, {1, 0, 0}};
  for (int bits : {1, 2, 4, 8})
    for (auto meta : {quant::MetaPrecision::fp16, quant::MetaPrecision::bf16, quant::MetaPrecision::fp32})
      for (auto [rows, cols] : shapes) {
        const std::string name = "sr" + std::to_string(bits);
        CAPTURE(name);
        CAPTURE(quant::to_string(meta));
        CAPTURE(rows);
        CAPTURE(cols);
        auto [ref, dev] = reference_and_device(name, meta, ctx);
        auto x = sr_matrix(rows, cols, rows * 31 + cols);
        const size_t wb = ref->wire_bytes(rows, cols), n = rows * cols;
        std::vector<uint8_t> wr(wb);
        std::vector<float> yr(n);
        ref->encode(x.data(), rows, cols, 7, wr.data());
        ref->decode(wr.data(), rows, cols, yr.data());
        for (Offsets o : offsets) {
          CAPTURE(o.x);
          CAPTURE(o.wire);
          CAPTURE(o.y);
          std::vector<float> xs(o.x + n);
          std::copy(x.begin(), x.end(), xs.begin() + std::ptrdiff_t(o.x));
          Tensor dx = Tensor::from_vector(xs).to(ctx);
          Tensor dw = Tensor::empty({int64_t(o.wire + wb)}, DType::u8, ctx);
          Tensor dy = Tensor::empty({int64_t(o.y + n)}, DType::f32, ctx);
          dev->encode(dx.data<float>() + o.x, rows, cols, 7, dw.data<uint8_t>() + o.wire);
          dev->decode(dw.data<uint8_t>() + o.wire, rows, cols, dy.data<float>() + o.y);
          ctx.synchronize();
          auto wd = dw.to_vector<uint8_t>();
          CHECK(std::memcmp(wr.data(), wd.data() + o.wire, wb) == 0);
          CHECK(float_mismatches(yr, dy.to_vector<float>(), o.y) == 0);
        }
      }
}

TEST_CASE("quant/cuda: SR kernels of widths that straddle bytes agree bit for bit with the reference, every rule") {
  if (std::string why = test::cuda_missing(); !why.empty()) MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why);
  DeviceContext ctx(Device::cuda(0));
  // 3, 5, 6, 7 bits are not shipped codecs (docs_examples/sr3_codec_test.cpp registers sr3 as a file
  // would), so their kernels are called directly; every shape takes the general kernels.
  const std::pair<size_t, size_t> shapes[] = {{1, 1}, {7, 13}, {33, 128}, {5000, 8}, {9, 72}, {3, 1001}};
  for (int rule = 0; rule < int(quant::kRoundingRules.size()); ++rule)
    for (int bits : {3, 5, 6, 7})
      for (auto meta : {quant::MetaPrecision::fp16, quant::MetaPrecision::bf16, quant::MetaPrecision::fp32})
        for (auto [rows, cols] : shapes)
          for (size_t wire_offset : {0, 1}) {
            CAPTURE(quant::kRoundingRules[size_t(rule)].prefix);
            CAPTURE(bits);
            CAPTURE(quant::to_string(meta));
            CAPTURE(rows);
            CAPTURE(cols);
            CAPTURE(wire_offset);
            auto x = sr_matrix(rows, cols, rows * 31 + cols);
            const size_t wb = quant::sr_wire_bytes(rows, cols, bits, meta), n = rows * cols;
            std::vector<uint8_t> wr(wb);
            std::vector<float> yr(n);
            quant::kernels::sr_encode_reference(x.data(), rows, cols, bits, meta, rule, 7, wr.data());
            quant::kernels::sr_decode_reference(wr.data(), rows, cols, bits, meta, yr.data());
            Tensor dx = Tensor::from_vector(x).to(ctx);
            Tensor dw = Tensor::empty({int64_t(wire_offset + wb)}, DType::u8, ctx);
            Tensor dy = Tensor::empty({int64_t(n)}, DType::f32, ctx);
            quant::kernels::sr_encode_cuda(dx.data<float>(), rows, cols, bits, meta, rule, 7,
                                           dw.data<uint8_t>() + wire_offset, ctx.stream());
            quant::kernels::sr_decode_cuda(dw.data<uint8_t>() + wire_offset, rows, cols, bits, meta, dy.data<float>(),
                                           ctx.stream());
            ctx.synchronize();
            auto wd = dw.to_vector<uint8_t>();
            CHECK(std::memcmp(wr.data(), wd.data() + wire_offset, wb) == 0);
            CHECK(float_mismatches(yr, dy.to_vector<float>(), 0) == 0);
          }
}
