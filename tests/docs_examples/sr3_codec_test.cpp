// docs/DEVELOPING.md's worked example "a codec", built as written: a new SR width is one line in
// its own file (here this test file, in its own test binary so that the other suites see the
// shipped table); the codec table, unbiased_codec(3), gnn.fwd_bits/bwd_bits and training then use
// it with nothing else changed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "core/config/resolve.hpp"
#include "core/quant/codec.hpp"
#include "core/quant/codecs/sr_codec.hpp"
#include "core/util/error.hpp"
#include "gnn/options.hpp"
#include "tests/core/quant/quant_test_util.hpp"
#include "tests/gnn/gnn_test_util.hpp"

namespace mlsys::quant {
namespace {
const bool registered = add_sr_codec(3, "3-bit stochastic rounding, per-row min/scale");
}  // namespace
}  // namespace mlsys::quant

using namespace mlsys;

TEST_CASE("docs example codec: sr3 is in the table, found by its width, and its kernels agree") {
  REQUIRE(quant::registered);
  auto c = quant::unbiased_codec(3);
  CHECK(c->name() == "sr3");
  CHECK(c->bits() == 3);
  CHECK(c->stochastic());
  CHECK(c->device());
  quant::CodecParams ref;
  ref.impl = quant::Impl::reference;
  auto r = quant::make_codec("sr3", ref);
  const size_t rows = 11, cols = 37;
  auto x = test::quant_matrix(rows, cols, 4);
  std::vector<uint8_t> wf(c->wire_bytes(rows, cols)), wr(wf.size());
  c->encode(x.data(), rows, cols, 8, wf.data());
  r->encode(x.data(), rows, cols, 8, wr.data());
  CHECK(wf == wr);
  std::vector<float> yf(rows * cols), yr(rows * cols);
  c->decode(wf.data(), rows, cols, yf.data());
  r->decode(wr.data(), rows, cols, yr.data());
  CHECK(std::memcmp(yf.data(), yr.data(), yf.size() * 4) == 0);
}

TEST_CASE("docs example codec: gnn.fwd_bits=3 is accepted and partitioned training exchanges 3-bit halos") {
  auto cfg = config::resolve({&gnn::gnn_section()}, {}, {"gnn.fwd_bits=3", "gnn.bwd_bits=3"});
  CHECK(cfg.get(gnn::gnn_section()).fwd_bits == 3);
  for (const char* key : {"fwd_bits", "bwd_bits"}) {  // --help and docs/CONFIG.md list 3 among the widths
    auto widths = gnn::gnn_section().find(key)->choices();
    CHECK(std::find(widths.begin(), widths.end(), "3") != widths.end());
  }
  CHECK_THROWS_AS(quant::unbiased_codec(5), ConfigError);  // a width no file registered
  using namespace gnn::gnntest;
  gnn::Graph g = gnn::generate_sbm(small_sbm(600), 3);
  gnn::TrainSetup s = quick_setup(2, 6);
  s.gnn.fwd_bits = s.gnn.bwd_bits = 3;
  gnn::TrainResult three = train(g, parts_of(g, 2), s);
  s.gnn.fwd_bits = s.gnn.bwd_bits = 32;
  gnn::TrainResult exact = train(g, parts_of(g, 2), s);
  auto a = losses(three), b = losses(exact);
  REQUIRE(a.size() == 6);
  CHECK(a.back() < a.front());  // it learns through 3-bit halos
  CHECK(three.epochs.back().mean.wire_bytes < exact.epochs.back().mean.wire_bytes / 2);  // 3 of 32 bits + metadata
}
