#include "core/quant/codec.hpp"
#include "core/tensor/device_backend.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "core/quant/half.hpp"
#include "core/quant/kernels.hpp"
#include "core/quant/sr_format.hpp"
#include "core/util/error.hpp"
#include "tests/core/quant/quant_test_util.hpp"

using namespace mlsys;
using quant::Impl;
using quant::MetaPrecision;

namespace {

const MetaPrecision kMetas[] = {MetaPrecision::fp16, MetaPrecision::bf16, MetaPrecision::fp32};
const std::pair<size_t, size_t> kShapes[] = {{1, 1}, {3, 1}, {7, 13}, {5, 128}, {17, 129}, {64, 7}, {2, 1000}, {9, 8}};

std::unique_ptr<quant::Codec> make(const std::string& name, Impl impl, MetaPrecision m = MetaPrecision::fp16) {
  quant::CodecParams p;
  p.impl = impl;
  p.meta = m;
  return quant::make_codec(name, p);
}

}  // namespace

TEST_CASE("quant/traits: codecs are found by what they are, the unbiased ones by width") {
  // Traits agree with what the codecs do: lossless round-trips exactly, the others do not.
  auto x = test::quant_matrix(5, 33, 2);
  for (const auto& info : quant::codec_table()) {
    CAPTURE(info.name);
    auto c = make(info.name, Impl::fast);
    CHECK(info.traits.bits == c->bits());
    CHECK(info.description == quant::codec_registry().entry(info.name).description);
    std::vector<uint8_t> w(c->wire_bytes(5, 33));
    std::vector<float> y(x.size());
    c->encode(x.data(), 5, 33, 9, w.data());
    c->decode(w.data(), 5, 33, y.data());
    CHECK(info.traits.lossless == (y == x));
    CHECK_FALSE((info.traits.lossless && info.traits.stochastic));
    std::vector<uint8_t> w2(w.size());
    c->encode(x.data(), 5, 33, 10, w2.data());
    CHECK(info.traits.stochastic == (w2 != w));  // only a stochastic codec's output depends on the seed
  }
  CHECK(quant::unbiased_widths() == std::vector<int>{1, 2, 4, 8, 32});  // fp16/bf16 round to nearest: biased
  CHECK(quant::unbiased_codec(1)->name() == "sr1");
  CHECK(quant::unbiased_codec(8)->name() == "sr8");
  CHECK(quant::unbiased_codec(32)->name() == "fp32");
  CHECK_THROWS_WITH_AS(quant::unbiased_codec(16), doctest::Contains("offers 1, 2, 4, 8, 32"), ConfigError);
  CHECK_THROWS_AS(quant::unbiased_codec(3), ConfigError);  // not shipped (codecs/sr_codec_test.cpp adds it)
  quant::CodecParams ref;
  ref.impl = Impl::reference;
  CHECK(quant::unbiased_codec(4, ref)->impl() == Impl::reference);
}

TEST_CASE("quant/registry: every codec is registered, sized and round-trips shapes") {
  auto names = quant::codec_registry().names();
  for (std::string n : {"fp32", "fp16", "bf16", "sr1", "sr2", "sr4", "sr8"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  for (auto* e : quant::codec_registry().entries()) {
    CAPTURE(e->name);
    CHECK(!e->description.empty());
    auto c = make(e->name, Impl::fast);
    CHECK(c->name() == e->name);
    auto x = test::quant_matrix(6, 10, 1);
    std::vector<uint8_t> w(c->wire_bytes(6, 10));
    std::vector<float> y(60);
    c->encode(x.data(), 6, 10, 3, w.data());
    c->decode(w.data(), 6, 10, y.data());
    CHECK(c->wire_bytes(0, 10) <= c->wire_bytes(1, 10));
  }
  CHECK_THROWS_AS(quant::make_codec("sr9"), ConfigError);
  CHECK_THROWS_AS(quant::parse_meta_precision("fp8"), ConfigError);
  // CUDA kernels come from the cuda plugin: where it is unavailable, asking for them says why.
  if (BackendStatus s = device_backend_status(Device::Kind::cuda); !s.available) {
    quant::CodecParams p;
    p.impl = Impl::cuda;
    CHECK_THROWS_WITH_AS(quant::make_codec("sr1", p), doctest::Contains(s.detail.c_str()), ConfigError);
  }
}

TEST_CASE("quant/sr: wire size is metadata + dense bits, 1-bit at F=128 is >= 25x with fp16 metadata") {
  for (int bits : {1, 2, 4, 8})
    for (auto m : kMetas) {
      auto c = make("sr" + std::to_string(bits), Impl::fast, m);
      size_t mb = m == MetaPrecision::fp32 ? 4 : 2;
      CHECK(c->wire_bytes(1000, 128) == 1000 * 2 * mb + 1000 * 128 * size_t(bits) / 8);
      CHECK(c->wire_bytes(3, 5) == 3 * 2 * mb + (15 * size_t(bits) + 7) / 8);  // packed across rows
    }
  auto c1 = make("sr1", Impl::fast);  // default metadata: fp16
  CHECK(double(c1->raw_bytes(1000, 128)) / double(c1->wire_bytes(1000, 128)) == doctest::Approx(25.6));
  auto c1w = make("sr1", Impl::fast, MetaPrecision::fp32);
  CHECK(double(c1w->raw_bytes(1000, 128)) / double(c1w->wire_bytes(1000, 128)) ==
        doctest::Approx(21.333).epsilon(0.001));
  CHECK(quant::CodecParams{}.meta == MetaPrecision::fp16);
}

TEST_CASE("quant/fast: vectorized kernels agree bit for bit with the reference") {
  const std::string simd = quant::kernels::fast_kernels_vectorized() ? "yes" : "no";
  MESSAGE("fast kernels vectorized on this CPU: " << simd);
  for (const std::string& name : quant::codec_registry().names())
    for (auto m : kMetas)
      for (auto [rows, cols] : kShapes) {
        CAPTURE(name);
        CAPTURE(quant::to_string(m));
        CAPTURE(rows);
        CAPTURE(cols);
        auto ref = make(name, Impl::reference, m), fast = make(name, Impl::fast, m);
        auto x = test::quant_matrix(rows, cols, rows * 1000 + cols);
        size_t wb = ref->wire_bytes(rows, cols);
        REQUIRE(fast->wire_bytes(rows, cols) == wb);
        std::vector<uint8_t> wr(wb + 16, 0xAB), wf(wb + 16, 0xCD);
        ref->encode(x.data(), rows, cols, 42, wr.data());
        fast->encode(x.data(), rows, cols, 42, wf.data());
        CHECK(std::memcmp(wr.data(), wf.data(), wb) == 0);
        CHECK(wf[wb] == 0xCD);  // nothing written past wire_bytes
        std::vector<float> yr(rows * cols + 4, -7.0f), yf(rows * cols + 4, -9.0f);
        ref->decode(wr.data(), rows, cols, yr.data());
        fast->decode(wr.data(), rows, cols, yf.data());
        CHECK(std::memcmp(yr.data(), yf.data(), rows * cols * 4) == 0);
        CHECK(yf[rows * cols] == -9.0f);
      }
}

TEST_CASE("quant/sr: error per value is below one quantization step, for every width and metadata") {
  const size_t rows = 40, cols = 33;
  auto x = test::quant_matrix(rows, cols, 5);
  for (int bits : {1, 2, 4, 8})
    for (auto m : kMetas) {
      CAPTURE(bits);
      CAPTURE(quant::to_string(m));
      auto c = make("sr" + std::to_string(bits), Impl::fast, m);
      std::vector<uint8_t> w(c->wire_bytes(rows, cols));
      std::vector<float> y(rows * cols);
      c->encode(x.data(), rows, cols, 9, w.data());
      c->decode(w.data(), rows, cols, y.data());
      const double rel = m == MetaPrecision::fp32 ? 1e-6 : (m == MetaPrecision::fp16 ? 1.0 / 1024 : 1.0 / 128);
      for (size_t r = 0; r < rows; ++r) {
        if (m == MetaPrecision::fp16 && r % 5 == 4) continue;  // beyond fp16 range: saturates (documented)
        double mn = x[r * cols], mx = mn;
        for (size_t j = 0; j < cols; ++j) {
          mn = std::min(mn, double(x[r * cols + j]));
          mx = std::max(mx, double(x[r * cols + j]));
        }
        double step = (mx - mn + std::fabs(mn) * rel * 2) / double((1 << bits) - 1) * (1 + 4 * rel);
        for (size_t j = 0; j < cols; ++j) {
          double err = std::fabs(double(y[r * cols + j]) - double(x[r * cols + j]));
          if (mx == mn)
            CHECK(err == 0.0);  // constant rows decode exactly
          else
            CHECK(err <= step + 1e-6 * std::fabs(mx));
        }
      }
    }
}

TEST_CASE("quant/sr: unbiased - the mean of many decodes converges to x") {
  const size_t cols = 64, trials = 3000;
  auto x = test::quant_matrix(1, cols, 11, -1.0f, 3.0f);
  for (int bits : {1, 2, 4, 8})
    for (auto m : kMetas) {
      CAPTURE(bits);
      CAPTURE(quant::to_string(m));
      auto c = make("sr" + std::to_string(bits), Impl::fast, m);
      std::vector<uint8_t> w(c->wire_bytes(1, cols));
      std::vector<float> y(cols);
      std::vector<double> mean(cols, 0.0);
      for (size_t t = 0; t < trials; ++t) {
        c->encode(x.data(), 1, cols, t, w.data());
        c->decode(w.data(), 1, cols, y.data());
        for (size_t j = 0; j < cols; ++j) mean[j] += y[j] / double(trials);
      }
      double step = 4.0 / double((1 << bits) - 1) * 1.01;
      double tol = 5 * step / 2 / std::sqrt(double(trials));  // 5 sigma of the mean of a Bernoulli step
      double bias = 0;
      for (size_t j = 0; j < cols; ++j) {
        CHECK(std::fabs(mean[j] - x[j]) <= tol);
        bias += (mean[j] - x[j]) / double(cols);
      }
      CHECK(std::fabs(bias) <= tol / std::sqrt(double(cols)) * 1.5);
    }
}

TEST_CASE("quant/sr: deterministic per seed, different seeds give different streams") {
  auto x = test::quant_matrix(8, 50, 2);
  for (int bits : {1, 4}) {
    auto c = make("sr" + std::to_string(bits), Impl::fast);
    std::vector<uint8_t> a(c->wire_bytes(8, 50)), b(a.size()), d(a.size());
    c->encode(x.data(), 8, 50, 123, a.data());
    c->encode(x.data(), 8, 50, 123, b.data());
    c->encode(x.data(), 8, 50, 124, d.data());
    CHECK(a == b);
    CHECK(a != d);
  }
}

TEST_CASE("quant/sr: constant rows decode exactly at every metadata precision") {
  for (float v : {0.0f, -0.0f, 0.1f, -123456.7f, 1e-30f, 3.4e38f, -1.0f, 65504.0f, 70000.5f}) {
    for (auto m : kMetas)
      for (int bits : {1, 2, 4, 8})
        for (size_t cols : {size_t(1), size_t(3), size_t(8), size_t(130)}) {
          CAPTURE(v);
          CAPTURE(bits);
          CAPTURE(cols);
          std::vector<float> x(2 * cols, v), y(2 * cols);
          for (size_t j = 0; j < cols; ++j) x[cols + j] = float(j);  // second row varies (F=1: constant too)
          for (Impl impl : {Impl::reference, Impl::fast}) {
            auto c = make("sr" + std::to_string(bits), impl, m);
            std::vector<uint8_t> w(c->wire_bytes(2, cols));
            c->encode(x.data(), 2, cols, 1, w.data());
            c->decode(w.data(), 2, cols, y.data());
            CHECK(std::memcmp(x.data(), y.data(), cols * 4) == 0);
          }
        }
  }
}

TEST_CASE("quant/half: fp16 and bf16 conversions round as IEEE says") {
  using namespace quant;
  CHECK(f32_to_f16(1.0f) == 0x3c00);
  CHECK(f32_to_f16(-2.0f) == 0xc000);
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);
  CHECK(f32_to_f16(5.9604645e-8f) == 0x0001);
  CHECK(f32_to_f16(2.9802322e-8f) == 0x0000);       // exactly half the smallest subnormal: ties to even
  CHECK(f32_to_f16(1.0f + 1.0f / 2048) == 0x3c00);  // tie -> even
  CHECK(f32_to_f16(1.0f + 3.0f / 2048) == 0x3c02);  // tie -> even (up)
  CHECK(f16_to_f32(0x3555) == doctest::Approx(0.333251953125));
  CHECK(f32_to_bf16(1.0f) == 0x3f80);
  CHECK(bf16_to_f32(0x3f80) == 1.0f);
  // Round-down variants: the largest representable value <= x.
  for (float x : {0.1f, -0.1f, 3.14159f, -65504.5f, 1e-9f, -1e-9f, 0.0f, 70000.0f, 1e-3f}) {
    CAPTURE(x);
    float d16 = f16_to_f32(f32_to_f16_down(x));
    if (x >= -65504.0f)
      CHECK(d16 <= x);
    else
      CHECK(d16 == -65504.0f);  // saturates instead of -inf (documented)
    if (x < 65504.0f && x > -65504.0f) {
      uint16_t h = f32_to_f16_down(x);
      uint16_t up = (h & 0x8000) ? (h == 0x8000 ? uint16_t(0x0001) : uint16_t(h - 1)) : uint16_t(h + 1);
      CHECK(f16_to_f32(up) > x);
    }
    float db = bf16_to_f32(f32_to_bf16_down(x));
    CHECK(db <= x);
  }
  for (uint32_t h = 0; h < 0x7c00; h += 7) CHECK(f32_to_f16(f16_to_f32(uint16_t(h))) == h);  // exact round trip
}

TEST_CASE("quant/sr: empty inputs and non-finite values do not crash") {
  auto c = make("sr2", Impl::fast);
  std::vector<uint8_t> w(c->wire_bytes(2, 4) + 1);
  c->encode(nullptr, 0, 4, 1, w.data());
  std::vector<float> x{1, NAN, 2, 3, INFINITY, 0, 1, 2};
  std::vector<std::vector<uint8_t>> wires;
  for (Impl impl : {Impl::reference, Impl::fast}) {
    auto cc = make("sr2", impl);
    std::vector<float> y(8);
    cc->encode(x.data(), 2, 4, 1, w.data());
    cc->decode(w.data(), 2, 4, y.data());
    wires.push_back(w);
  }
  CHECK(wires[0] == wires[1]);  // even garbage in gives the same bytes from every kernel
}
