// The one .npy reader (core/util/npy.hpp): every accepted dtype, format 2.0 headers, the stated
// limits on headers and shapes (refused before anything is allocated), and the writer's bytes.
#include <doctest/doctest.h>

#include <functional>
#include <limits>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/npy.hpp"
#include "tests/core/util/npz_writer.hpp"

using namespace mlsys;
using namespace mlsys::npztest;

namespace {

std::string error_of(const std::function<void()>& f) { return test::thrown_message<InputError>(f); }

}  // namespace

TEST_CASE("npy arrays: each accepted dtype reads back, format 2.0 headers too") {
  CHECK(parse_npy(f4({2}, {1.5f, -2}), "a").doubles() == std::vector<double>{1.5, -2});
  CHECK(parse_npy(f8({2}, {0.25, 3}), "a").doubles() == std::vector<double>{0.25, 3});
  CHECK(parse_npy(i4({3}, {-1, 0, 7}), "a").ints() == std::vector<int64_t>{-1, 0, 7});
  CHECK(parse_npy(i8({int64_t{1} << 40}), "a").ints() == std::vector<int64_t>{int64_t{1} << 40});
  CHECK(parse_npy(b1({2}, {1, 0}), "a").ints() == std::vector<int64_t>{1, 0});
  CHECK(parse_npy(u1({2}, {255, 3}), "a").ints() == std::vector<int64_t>{255, 3});
  CHECK(parse_npy(f8({2}, {0.25, -8}), "a").floats() == std::vector<float>{0.25f, -8});
  NpyArray s = parse_npy(i8({}, {42}), "a");
  CHECK(s.shape.empty());
  CHECK(s.size() == 1);
  CHECK(s.ints() == std::vector<int64_t>{42});
  // Format 2.0: a 4-byte header length.
  std::string v1 = i4({2, 2}, {1, 2, 3, 4});
  const uint16_t hlen = static_cast<uint8_t>(v1[8]) | (static_cast<uint8_t>(v1[9]) << 8);
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8) + v1.substr(8, 2) + std::string(2, '\0') + v1.substr(10);
  NpyArray a = parse_npy(v2, "a");
  CHECK(a.shape == std::vector<int64_t>{2, 2});
  CHECK(a.rows() == 2);
  CHECK(a.row_size() == 2);
  CHECK(a.ints() == std::vector<int64_t>{1, 2, 3, 4});
  CHECK((10 + hlen) % 64 == 0);  // the writer pads as numpy does
  CHECK(error_of([&] { parse_npy(f4({1}, {0.5f}), "k").ints(); }).find("k: element 0 is 0.5, expected an integer") != std::string::npos);
  CHECK(error_of([&] { parse_npy(f4({2}, {1, std::numeric_limits<float>::infinity()}), "k").floats(); })
            .find("k: element 1 is inf, expected a finite float32 value") != std::string::npos);
  CHECK(error_of([&] { parse_npy(f8({1}, {1e300}), "k").floats(); }).find("k: element 0 is 1e+300") != std::string::npos);
}

TEST_CASE("npy absurd shapes and headers are refused from the header alone, naming the file and the cap") {
  // A shape whose bytes overflow 64 bits, one just over the 2 GiB cap, one past int64: each is an
  // error before any data is looked at (the data here is 4 bytes).
  const std::string four(4, '\0');
  const std::string huge = error_of([&] { parse_npy(npy_text("<f4", "4294967296, 4294967296, 4294967296", four), "big.npy"); });
  CHECK(huge.find("big.npy: shape (4294967296, 4294967296, 4294967296) of <f4 needs more than the 2 GiB (2147483648 bytes)") != std::string::npos);
  CHECK(huge.find("kMaxNpyArrayBytes") != std::string::npos);
  CHECK(error_of([&] { parse_npy(npy_text("<f4", "536870912, 2", four), "cap.npy"); }).find("cap.npy: shape (536870912, 2) of <f4 needs more than") !=
        std::string::npos);
  // Exactly at the cap is a size the header may state (the data is then checked against it).
  CHECK(error_of([&] { parse_npy(npy_text("<f4", "536870912,", four), "at.npy"); })
            .find("at.npy: holds 4 data bytes but its shape and dtype <f4 need 2147483648 (truncated or damaged)") != std::string::npos);
  CHECK(error_of([&] { parse_npy(npy_text("<f4", "99999999999999999999,", four), "d.npy"); }).find("d.npy: malformed .npy header (dimension too large") !=
        std::string::npos);
  CHECK(error_of([&] { parse_npy(npy_text("<f4", "-1,", four), "n.npy"); }).find("n.npy: malformed .npy header (expected a non-negative integer dimension") !=
        std::string::npos);
  // A format 2.0 header claiming 1 MiB of dict.
  std::string long_header = std::string("\x93NUMPY\x02\x00", 8) + std::string("\x00\x00\x10\x00", 4) + "{}";
  CHECK(error_of([&] { parse_npy(long_header, "h.npy"); }).find("h.npy: .npy header of 1048588 bytes is longer than the 65536 mlsys reads") !=
        std::string::npos);
  CHECK(error_of([&] { parse_npy(std::string("\x93NUMPY\x07\x00\x10\x00", 10), "v.npy"); }).find("v.npy: .npy format version 7 is not supported") !=
        std::string::npos);
  CHECK(error_of([&] { parse_npy("short", "s.npy"); }).find("s.npy: not a .npy array") != std::string::npos);

  // From a file, the same: the message names the path.
  test::TempDir dir("npyshape");
  write_file_atomic(dir / "big.npy", npy_text("<f8", "1000000, 1000000", four));
  CHECK(error_of([&] { read_npy(dir / "big.npy"); }).find((dir / "big.npy").string() + ": shape (1000000, 1000000) of <f8 needs more than the 2 GiB") !=
        std::string::npos);
  CHECK(error_of([&] { read_npy(dir / "missing.npy"); }).find("file not found: " + (dir / "missing.npy").string()) != std::string::npos);
}

TEST_CASE("npy writer: numpy's format 1.0 bytes, read back by the reader") {
  test::TempDir dir("npyw");
  write_npy(dir / "a.npy", {2, 3}, std::vector<float>{1.5f, -2, 3, 4, 5, 6});
  const std::string a = read_file(dir / "a.npy");
  CHECK(a.size() % 64 == 24);  // 64-byte header + 6 floats
  CHECK(a.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2,3), }") == 10);
  CHECK(read_npy(dir / "a.npy").floats() == std::vector<float>{1.5f, -2, 3, 4, 5, 6});
  write_npy(dir / "i.npy", {3}, std::vector<int32_t>{7, -1, 3});
  CHECK(read_file(dir / "i.npy").find("'descr': '<i4', 'fortran_order': False, 'shape': (3,), }") != std::string::npos);
  CHECK(read_npy(dir / "i.npy").ints() == std::vector<int64_t>{7, -1, 3});
  CHECK_THROWS_AS(write_npy(dir / "bad.npy", {2, 2}, std::vector<float>{1, 2, 3}), Error);
  CHECK(npy_file(NpyType::u1, {}, std::string(1, '\x05')).find("'shape': (), }") != std::string::npos);
}
