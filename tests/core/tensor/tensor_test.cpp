#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "tests/core/kernels/backend_test.hpp"

using namespace mlsys;

TEST_CASE("f16 and bf16 conversions round to nearest even and keep specials") {
  for (float v : {0.f, -0.f, 1.f, -2.5f, 65504.f, 6.1035156e-05f, 5.9604645e-08f, 0.1f, 3.14159f}) {
    CAPTURE(v);
    CHECK(to_float(to_half(v)) == doctest::Approx(v).epsilon(1e-3));
    CHECK(to_float(to_bf16(v)) == doctest::Approx(v).epsilon(1e-2));
  }
  CHECK(float_to_half_bits(1.f) == 0x3c00);
  CHECK(float_to_half_bits(65520.f) == 0x7c00);           // rounds up to inf
  CHECK(float_to_half_bits(1.f + 1.f / 2048.f) == 0x3c00);  // tie -> even
  CHECK(float_to_half_bits(1.f + 3.f / 2048.f) == 0x3c02);  // tie -> even (up)
  CHECK(std::isnan(to_float(to_half(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(std::isinf(to_float(to_half(std::numeric_limits<float>::infinity()))));
  CHECK(float_to_bf16_bits(1.f) == 0x3f80);
  CHECK(std::isnan(to_float(to_bf16(std::numeric_limits<float>::quiet_NaN()))));
  // every half value round-trips exactly through float
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = half_bits_to_float(static_cast<uint16_t>(h));
    if (!std::isnan(f)) REQUIRE(float_to_half_bits(f) == h);
  }
}

TEST_CASE("tensor factories, views and dtype checks") {
  Tensor t = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2});
  CHECK(t.shape() == Shape{3, 2});
  CHECK(t.str() == "f32[3, 2] on cpu");
  Tensor mid = t.rows(1, 3);
  CHECK(mid.shares_storage_with(t));
  CHECK(mid.to_vector<float>() == std::vector<float>{3, 4, 5, 6});
  mid.data<float>()[0] = 30;  // writes through the view
  CHECK(t.item(2) == 30);
  CHECK(t.row(2).to_vector<float>() == std::vector<float>{5, 6});
  CHECK(t.row(2).rank() == 1);
  CHECK(t.reshape({2, 3}).dim(1) == 3);
  CHECK_THROWS_AS(t.reshape({4}), Error);
  CHECK_THROWS_AS(t.rows(2, 4), Error);
  CHECK_THROWS_WITH_AS(t.data<int32_t>(), doctest::Contains("accessed as i32"), Error);
  Tensor c = t.clone();
  CHECK_FALSE(c.shares_storage_with(t));
  CHECK(c.to_vector<float>() == t.to_vector<float>());
  Tensor z = Tensor::zeros({2, 3, 4, 5}, DType::i64);
  CHECK(z.numel() == 120);
  CHECK(z.nbytes() == 960);
  CHECK(z.to_vector<int64_t>() == std::vector<int64_t>(120, 0));
  CHECK_THROWS_AS((Shape{1, 2, 3, 4, 5}), Error);
  Tensor e = Tensor::empty({0, 7});
  CHECK(e.numel() == 0);
  CHECK(e.rows(0, 0).numel() == 0);
  CHECK_FALSE(Tensor().defined());
  // adopting a vector's buffer: no copy, same data
  std::vector<int32_t> big(1000, 7);
  const int32_t* buf = big.data();
  Tensor adopted = Tensor::from_vector(std::move(big), {10, 100});
  CHECK(adopted.data<int32_t>() == buf);
  CHECK(adopted.rows(9, 10).to_vector<int32_t>() == std::vector<int32_t>(100, 7));
  CHECK(Tensor().to(Device::cpu()).defined() == false);
}

TEST_CASE("to_dtype converts between all element types on the host") {
  Tensor f = Tensor::from_vector(std::vector<float>{-1.5f, 0.f, 2.25f, 100.f});
  CHECK(f.to_dtype(DType::f16).to_dtype(DType::f32).to_vector<float>() == f.to_vector<float>());
  CHECK(f.to_dtype(DType::bf16).to_dtype(DType::f32).to_vector<float>() == f.to_vector<float>());
  CHECK(f.to_dtype(DType::i32).to_vector<int32_t>() == std::vector<int32_t>{-1, 0, 2, 100});
  Tensor big = Tensor::from_vector(std::vector<int64_t>{int64_t{1} << 40, 7});
  CHECK(big.to_dtype(DType::i32).to_dtype(DType::i64).to_vector<int64_t>()[1] == 7);
  CHECK(Tensor::from_vector(std::vector<int32_t>{3, -4}).to_dtype(DType::i64).to_vector<int64_t>() ==
        std::vector<int64_t>{3, -4});
  CHECK(Tensor::from_vector(std::vector<uint8_t>{0, 255}).to_dtype(DType::f32).to_vector<float>() ==
        std::vector<float>{0, 255});
  CHECK(big.to_dtype(DType::f64).to_vector<double>()[0] == 1099511627776.0);  // i64 -> f64 exact
  CHECK(Tensor::from_vector(std::vector<double>{0.1, -2}).to_dtype(DType::f32).to_vector<float>() ==
        std::vector<float>{0.1f, -2.0f});
  CHECK(parse_dtype("bf16") == DType::bf16);
  CHECK(parse_dtype("f64") == DType::f64);
  CHECK(dtype_size(DType::f64) == 8);
  CHECK_THROWS_AS(parse_dtype("f8"), ConfigError);
}

TEST_CASE("devices parse and unavailable ones give a clear error") {
  CHECK(Device::parse("cpu") == Device::cpu());
  CHECK(Device::parse("cuda:3").index == 3);
  CHECK(Device::parse("cuda").str() == "cuda:0");
  CHECK_THROWS_AS(Device::parse("tpu"), ConfigError);
  CHECK_THROWS_AS(Device::parse("cuda:x"), ConfigError);
  // Where the cuda backend is unavailable, asking for it is a ConfigError (exit 2) with the reason.
  BackendStatus s = device_backend_status(Device::Kind::cuda);
  if (!s.available)
    CHECK_THROWS_WITH_AS(DeviceContext(Device::cuda(0)), doctest::Contains(s.detail.c_str()), ConfigError);
  else
    CHECK_THROWS_WITH_AS(DeviceContext(Device::cuda(cuda_device_count())), doctest::Contains("device(s) are visible"),
                         ConfigError);
}

BACKEND_TEST("tensors copy between devices explicitly and round-trip") {
  Tensor h = mlsys::test::rand_tensor({5, 3}, 1);
  Tensor d = h.to(ctx);
  CHECK(d.device() == ctx.device());
  CHECK(d.to(Device::cpu()).to_vector<float>() == h.to_vector<float>());
  Tensor v = d.rows(2, 4);  // a view on the device
  CHECK(v.to_vector<float>() == h.rows(2, 4).to_vector<float>());
  Tensor z = Tensor::zeros({4}, DType::i32, ctx);
  CHECK(z.to_vector<int32_t>() == std::vector<int32_t>(4, 0));
  Tensor d2 = Tensor::empty({5, 3}, DType::f32, ctx);
  d2.copy_from(h);
  CHECK(d2.to_vector<float>() == h.to_vector<float>());
  CHECK_THROWS_AS(d2.copy_from(Tensor::zeros({2})), Error);
}

TEST_CASE("CSR from COO, validation and transpose") {
  // 3 x 4: (0,1) (0,3) (2,0) (2,1) (1,2)
  Csr a = Csr::from_coo(3, 4, {0, 2, 0, 2, 1}, {1, 0, 3, 1, 2}, {1, 2, 3, 4, 5});
  CHECK(a.row_ptr.to_vector<int64_t>() == std::vector<int64_t>{0, 2, 3, 5});
  CHECK(a.col.to_vector<int32_t>() == std::vector<int32_t>{1, 3, 2, 0, 1});
  CHECK(a.values.to_vector<float>() == std::vector<float>{1, 3, 5, 2, 4});
  a.validate();
  Csr t = a.transpose();
  CHECK(t.rows == 4);
  CHECK(t.row_ptr.to_vector<int64_t>() == std::vector<int64_t>{0, 1, 3, 4, 5});
  CHECK(t.col.to_vector<int32_t>() == std::vector<int32_t>{2, 0, 2, 1, 0});
  CHECK(t.values.to_vector<float>() == std::vector<float>{2, 1, 4, 5, 3});
  CHECK(t.edge_id.to_vector<int64_t>() == std::vector<int64_t>{3, 0, 4, 2, 1});
  Csr tt = t.transpose();  // edge ids compose back to the original order
  CHECK(tt.edge_id.to_vector<int64_t>() == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK_THROWS_WITH_AS(Csr::from_coo(2, 2, {0, 2}, {0, 0}), doctest::Contains("outside a 2 x 2"), InputError);
  CHECK_THROWS_AS(Csr::from_arrays(2, 2, {0, 2, 1}, {0, 1}), InputError);
  CHECK_THROWS_AS(Csr::from_arrays(2, 2, {0, 1, 2}, {0, 5}), InputError);
  Csr r = Csr::random(1000, 800, 5000, 9, true, true);
  r.validate();
  CHECK(r.nnz() == 5000);
  Csr r2 = Csr::random(1000, 800, 5000, 9, true, true);
  CHECK(r2.col.to_vector<int32_t>() == r.col.to_vector<int32_t>());
  // R-MAT skew: the busiest row holds far more than the average of 5 nonzeros
  std::vector<int64_t> rp = r.row_ptr.to_vector<int64_t>();
  int64_t maxdeg = 0;
  for (size_t i = 0; i + 1 < rp.size(); ++i) maxdeg = std::max(maxdeg, rp[i + 1] - rp[i]);
  CHECK(maxdeg > 50);
}
