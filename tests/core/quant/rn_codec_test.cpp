// The round-to-nearest rule (core/quant/rounding/nearest.hpp), added as one header: its codecs
// rn1, rn2, rn4, rn8 are in the table with the right traits (deterministic, hence not unbiased:
// unbiased_codec keeps returning sr), its reference, fast and CUDA kernels agree bit for bit, its
// output ignores the seed and every value lands on its nearest level (error at most half a step).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/rounding.hpp"
#include "core/quant/sr_format.hpp"
#include "tests/core/kernels/backend_test.hpp"
#include "core/util/error.hpp"
#include "tests/core/quant/quant_test_util.hpp"
#include "tests/core/tensor/emulated_device.hpp"

using namespace mlsys;
using quant::Impl;
using quant::MetaPrecision;

namespace {

const MetaPrecision kMetas[] = {MetaPrecision::fp16, MetaPrecision::bf16, MetaPrecision::fp32};
const int kWidths[] = {1, 2, 4, 8};

std::unique_ptr<quant::Codec> make(const std::string& name, Impl impl, MetaPrecision m = MetaPrecision::fp16) {
  quant::CodecParams p;
  p.impl = impl;
  p.meta = m;
  return quant::make_codec(name, p);
}

std::vector<uint8_t> encode(const quant::Codec& c, const std::vector<float>& x, size_t rows, size_t cols,
                            uint64_t seed) {
  std::vector<uint8_t> w(c.wire_bytes(rows, cols));
  c.encode(x.data(), rows, cols, seed, w.data());
  return w;
}

std::vector<float> decode(const quant::Codec& c, const std::vector<uint8_t>& w, size_t rows, size_t cols) {
  std::vector<float> y(rows * cols);
  c.decode(w.data(), rows, cols, y.data());
  return y;
}

// fn(codec name, metadata precision, rows, cols) for every rn codec, precision and shape.
template <class Fn>
void for_each_case(std::initializer_list<std::pair<size_t, size_t>> shapes, Fn fn) {
  for (int bits : kWidths)
    for (auto m : kMetas)
      for (auto [rows, cols] : shapes) {
        const std::string name = "rn" + std::to_string(bits);
        CAPTURE(name);
        CAPTURE(quant::to_string(m));
        CAPTURE(rows);
        CAPTURE(cols);
        fn(name, m, rows, cols);
      }
}

}  // namespace

TEST_CASE("quant/rn: round-to-nearest codecs are registered as deterministic, the unbiased lookup still finds sr") {
  for (int bits : kWidths) {
    CAPTURE(bits);
    auto c = make("rn" + std::to_string(bits), Impl::fast);
    CHECK(c->name() == "rn" + std::to_string(bits));
    CHECK(c->bits() == bits);
    CHECK_FALSE(c->stochastic());  // biased: never an exchange's unbiased codec
    CHECK_FALSE(c->lossless());
    CHECK(c->device());
    CHECK(c->wire_bytes(7, 13) == make("sr" + std::to_string(bits), Impl::fast)->wire_bytes(7, 13));  // same format
    CHECK(quant::unbiased_codec(bits)->name() == "sr" + std::to_string(bits));
    CHECK(quant::unbiased_codecs(bits).size() == 1);
  }
  CHECK(quant::unbiased_widths() == std::vector<int>{1, 2, 4, 8, 32});
  CHECK(quant::kRoundingRules[quant::kRuleIndex<quant::rounding::nearest::Rule>].prefix == std::string("rn"));
  CHECK_FALSE(quant::kRoundingRules[quant::kRuleIndex<quant::rounding::nearest::Rule>].stochastic);
  CHECK(quant::kRoundingRules[quant::kRuleIndex<quant::rounding::stochastic::Rule>].stochastic);
}

TEST_CASE("quant/rn: a hand-worked row rounds half up to its nearest level") {
  // 2 bits, fp32 metadata, row [0, 0.2, 0.5, 0.74, 1]: mn = 0, s = 3, p = x * s = 0, 0.6, 1.5, 2.22, 3,
  // q = floor(p + 1/2) = 0, 1, 2, 2, 3 (1.5 is a tie: up). Packed LSB first: 0 | 1 << 2 | 2 << 4 |
  // 2 << 6 = 0xA4, then 3.
  const std::vector<float> x{0.0f, 0.2f, 0.5f, 0.74f, 1.0f};
  for (Impl impl : {Impl::reference, Impl::fast}) {
    auto c = make("rn2", impl, MetaPrecision::fp32);
    auto w = encode(*c, x, 1, 5, 1);
    REQUIRE(w.size() == 8 + 2);
    CHECK(quant::load_field(w.data(), 4) == quant::float_bits(0.0f));
    CHECK(quant::load_field(w.data() + 4, 4) == quant::float_bits(3.0f));
    CHECK(w[8] == 0xA4);
    CHECK(w[9] == 0x03);
    auto y = decode(*c, w, 1, 5);
    CHECK(y == std::vector<float>{0.0f, 1.0f / 3.0f, 2.0f / 3.0f, 2.0f / 3.0f, 1.0f});
  }
  // Stochastic rounding of the same row draws noise: over seeds, 0.2 (p = 0.6) is sometimes 0.
  auto sr = make("sr2", Impl::fast, MetaPrecision::fp32);
  bool rounded_down = false;
  for (uint64_t seed = 0; seed < 64 && !rounded_down; ++seed)
    rounded_down = decode(*sr, encode(*sr, x, 1, 5, seed), 1, 5)[1] == 0.0f;
  CHECK(rounded_down);
}

TEST_CASE("quant/rn: reference and fast agree bit for bit, and neither depends on the seed") {
  for_each_case({{1, 1}, {3, 1}, {7, 13}, {5, 128}, {17, 129}, {64, 7}, {2, 1000}, {9, 8}},
                [](const std::string& name, MetaPrecision m, size_t rows, size_t cols) {
                  auto ref = make(name, Impl::reference, m), fast = make(name, Impl::fast, m);
                  auto x = test::quant_matrix(rows, cols, rows * 1000 + cols);
                  auto wr = encode(*ref, x, rows, cols, 1);
                  CHECK(encode(*fast, x, rows, cols, 1) == wr);
                  CHECK(encode(*fast, x, rows, cols, 0xfeedface) == wr);  // the seed is ignored
                  CHECK(encode(*ref, x, rows, cols, 77) == wr);
                  CHECK(decode(*fast, wr, rows, cols) == decode(*ref, wr, rows, cols));
                });
}

TEST_CASE("quant/rn: every value decodes within half a step of its row's stored scale") {
  const size_t rows = 40, cols = 45;
  auto x = test::quant_matrix(rows, cols, 5);
  for (int bits : kWidths)
    for (auto m : kMetas) {
      CAPTURE(bits);
      CAPTURE(quant::to_string(m));
      auto c = make("rn" + std::to_string(bits), Impl::fast, m);
      auto w = encode(*c, x, rows, cols, 3);
      auto y = decode(*c, w, rows, cols);
      const size_t fb = quant::meta_field_bytes(m);
      double worst = 0;  // largest error in steps over the rows
      for (size_t r = 0; r < rows; ++r) {
        if (m == MetaPrecision::fp16 && r % 5 == 4) continue;  // beyond fp16 range: saturates (documented)
        const uint32_t scale_field = quant::load_field(w.data() + r * 2 * fb + fb, fb);
        if (quant::sr_is_constant_field(scale_field, m)) {
          CHECK(std::memcmp(y.data() + r * cols, x.data() + r * cols, cols * 4) == 0);  // exact
          continue;
        }
        const double step = 1.0 / double(quant::meta_field_value(scale_field, m));
        for (size_t j = 0; j < cols; ++j) {
          const double xv = x[r * cols + j], err = std::fabs(double(y[r * cols + j]) - xv);
          // Half a step, plus the float rounding of (x - mn) * s and of the decode.
          CHECK(err <= 0.5 * step * (1 + 1e-5) + 1e-6 * std::fabs(xv));
          worst = std::max(worst, err / step);
        }
      }
      CHECK(worst > 0.25);  // the rows are not degenerate: some values do fall between levels
    }
  // Stochastic rounding of the same data exceeds half a step somewhere: the rules differ.
  auto sr = make("sr4", Impl::fast, MetaPrecision::fp32), rn = make("rn4", Impl::fast, MetaPrecision::fp32);
  CHECK(encode(*sr, x, rows, cols, 3) != encode(*rn, x, rows, cols, 3));
}

TEST_CASE("quant/rn: a device codec table built for other rounding rules is refused, naming the fix") {
  // A cuda plugin built before a rule header was added indexes the rules differently: the core
  // compares the table's list with its own before any call (here the emulated device's table).
  test::EmulatedDevice device;
  quant::DeviceCodecKernels& table = test::EmulatedDevice::backend().codec_table();
  quant::CodecParams p;
  p.impl = Impl::cuda;
  auto c = quant::make_codec("rn1", p);
  const std::vector<float> x{1, 2, 3, 4};
  std::vector<uint8_t> w(c->wire_bytes(1, 4));
  c->encode(x.data(), 1, 4, 1, w.data());  // the emulated kernels run on host memory
  CHECK(w == encode(*make("rn1", Impl::reference), x, 1, 4, 1));
  const char* own = table.rounding_rules;
  table.rounding_rules = "stochastic";
  CHECK_THROWS_WITH_AS(c->encode(x.data(), 1, 4, 1, w.data()), doctest::Contains("rebuild libmlsys_cuda.so"), Error);
  table.rounding_rules = own;
}

TEST_CASE("quant/cuda: round-to-nearest CUDA kernels agree bit for bit with the reference") {
  if (std::string why = test::cuda_missing(); !why.empty()) MLSYS_SKIP("no-gpu", "cuda backend unavailable: " << why);
  DeviceContext ctx(Device::cuda(0));
  // cols % 8 == 0 takes the fused row kernels at 1, 2, 4, 8 bits; the other shapes the general ones.
  for_each_case({{1, 1}, {7, 13}, {17, 129}, {300, 128}, {33, 1024}, {5000, 8}},
                [&](const std::string& name, MetaPrecision m, size_t rows, size_t cols) {
                  quant::CodecParams rp;
                  rp.impl = Impl::reference;
                  rp.meta = m;
                  auto ref = quant::make_codec(name, rp), dev = quant::make_codec(name, quant::params_for(ctx, rp));
                  REQUIRE(quant::runs_on(*dev, ctx.device()));
                  auto x = test::quant_matrix(rows, cols, rows + cols);
                  const size_t wb = ref->wire_bytes(rows, cols), n = rows * cols;
                  auto wr = encode(*ref, x, rows, cols, 5);
                  auto yr = decode(*ref, wr, rows, cols);
                  Tensor dx = Tensor::from_vector(x).to(ctx);
                  Tensor dw = Tensor::empty({int64_t(wb)}, DType::u8, ctx);
                  Tensor dy = Tensor::empty({int64_t(n)}, DType::f32, ctx);
                  dev->encode(dx.data<float>(), rows, cols, 99, dw.data<uint8_t>());  // another seed: ignored
                  dev->decode(dw.data<uint8_t>(), rows, cols, dy.data<float>());
                  ctx.synchronize();
                  CHECK(dw.to_vector<uint8_t>() == wr);
                  auto yd = dy.to_vector<float>();
                  CHECK(std::memcmp(yr.data(), yd.data(), n * 4) == 0);
                });
}
