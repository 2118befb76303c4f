// CUDA codec kernels against the reference, bit for bit (skipped where the cuda backend is
// unavailable). Device memory comes from a DeviceContext, through the cuda plugin.
#include <doctest/doctest.h>

#include <cstring>

#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "tests/core/kernels/backend_test.hpp"
#include "tests/core/quant/quant_test_util.hpp"

using namespace mlsys;

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
        quant::CodecParams rp;
        rp.impl = quant::Impl::reference;
        rp.meta = meta;
        auto ref = quant::make_codec(name, rp), dev = quant::make_codec(name, quant::params_for(ctx, rp));
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
