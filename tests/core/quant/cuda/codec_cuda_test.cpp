// CUDA codec kernels against the reference, bit for bit (skipped without a GPU).
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstring>

#include "core/quant/codec.hpp"
#include "tests/core/quant/quant_test_util.hpp"

using namespace mlsys;

TEST_CASE("quant/cuda: CUDA kernels agree bit for bit with the reference (skipped without a GPU)") {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    MESSAGE("SKIPPED: no CUDA device visible");
    return;
  }
  const std::pair<size_t, size_t> shapes[] = {{1, 1}, {7, 13}, {17, 129}, {300, 128}, {2, 1000}};
  for (std::string name : {"sr1", "sr2", "sr4", "sr8", "fp16", "bf16", "fp32"})
    for (auto meta : {quant::MetaPrecision::fp16, quant::MetaPrecision::bf16, quant::MetaPrecision::fp32})
      for (auto [rows, cols] : shapes) {
        CAPTURE(name);
        CAPTURE(rows);
        CAPTURE(cols);
        quant::CodecParams rp, cp;
        rp.impl = quant::Impl::reference;
        cp.impl = quant::Impl::cuda;
        rp.meta = cp.meta = meta;
        auto ref = quant::make_codec(name, rp), dev = quant::make_codec(name, cp);
        auto x = test::quant_matrix(rows, cols, rows + cols);
        size_t wb = ref->wire_bytes(rows, cols), n = rows * cols;
        std::vector<uint8_t> wr(wb), wd(wb);
        std::vector<float> yr(n), yd(n);
        ref->encode(x.data(), rows, cols, 5, wr.data());
        ref->decode(wr.data(), rows, cols, yr.data());
        float *dx = nullptr, *dy = nullptr;
        uint8_t* dw = nullptr;
        REQUIRE(cudaMalloc(&dx, n * 4) == cudaSuccess);
        REQUIRE(cudaMalloc(&dy, n * 4) == cudaSuccess);
        REQUIRE(cudaMalloc(&dw, wb) == cudaSuccess);
        cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
        dev->encode(dx, rows, cols, 5, dw);
        dev->decode(dw, rows, cols, dy);
        cudaMemcpy(wd.data(), dw, wb, cudaMemcpyDeviceToHost);
        cudaMemcpy(yd.data(), dy, n * 4, cudaMemcpyDeviceToHost);
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
        CHECK(std::memcmp(wr.data(), wd.data(), wb) == 0);
        CHECK(std::memcmp(yr.data(), yd.data(), n * 4) == 0);
        cudaFree(dx);
        cudaFree(dy);
        cudaFree(dw);
      }
}
