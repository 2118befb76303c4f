// The .npz reader (core/util/npz.hpp, libzip): a member's declared size is checked against the
// cap, deflate's limit and its .npy header before its data is inflated; damaged and truncated
// members are errors naming the archive and key. Archives are written here (npz_writer.hpp) with
// the damage stated: a member's compressed bytes that cannot be inflated at all show that a
// refusal came before any inflating.
#include <doctest/doctest.h>

#include <functional>

#include "core/util/error.hpp"
#include "core/util/npz.hpp"
#include "tests/core/util/npz_writer.hpp"

using namespace mlsys;
using namespace mlsys::npztest;

namespace {

std::string error_of(const std::function<void()>& f) { return test::thrown_message<InputError>(f); }

// The error reading member `key` of an archive of `members`.
std::string read_error(const std::vector<Member>& members, const std::string& key, bool deflated = true) {
  return error_of([&] { NpzArchive::from_bytes(zip(members, deflated), "t.npz").array(key); });
}

std::vector<float> ramp(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i % 97);
  return v;
}

}  // namespace

TEST_CASE("npz reads stored and deflated members, keys without .npy, sorted") {
  for (bool deflated : {false, true}) {
    const NpzArchive a = NpzArchive::from_bytes(zip({{"y.npy", i8({3, 1, 2})}, {"x.npy", f4({2, 2}, {1, 2, 3, 4})}}, deflated), "t.npz");
    CHECK(a.keys() == std::vector<std::string>{"x", "y"});
    CHECK(a.has("x"));
    CHECK_FALSE(a.has("x.npy"));
    const NpyArray x = a.array("x");
    CHECK(x.where == "t.npz: x");
    CHECK(x.shape == std::vector<int64_t>{2, 2});
    CHECK(x.floats() == std::vector<float>{1, 2, 3, 4});
    CHECK(a.array("y").ints() == std::vector<int64_t>{3, 1, 2});
    CHECK(error_of([&] { a.array("z"); }).find("t.npz: no array named 'z'") != std::string::npos);
  }
  // A header shorter than the 12 bytes read first: the bytes after it are the data.
  std::string tiny = std::string("\x93NUMPY\x01\x00", 8) + std::string("\x00\x00", 2);
  CHECK(error_of([&] { NpzArchive::from_bytes(zip({{"t.npy", tiny + "ab"}}), "t.npz").array("t"); }).find("t.npz: t: malformed .npy header") != std::string::npos);
}

TEST_CASE("npz member sizes are checked before inflating: the cap, deflate's limit, the .npy header") {
  // 1000 bytes that are not deflate data: inflating any of them would fail with a zlib error, so
  // each refusal below names a size, never the data.
  const std::string garbage(1000, '\xff');

  // A member declaring 4 GiB (ZIP64) is over the 2 GiB cap on one array: the error names the
  // archive, the key, the member and the cap.
  const std::string cap = read_error({{"x.npy", f4({1}, {1}), garbage, uint64_t{4} << 30}}, "x");
  CHECK(cap.find("t.npz: x: member x.npy declares 4294967296 bytes uncompressed, more than the 2147549196 bytes (a 2 GiB array and its header)") !=
        std::string::npos);
  CHECK(cap.find("kMaxNpyArrayBytes") != std::string::npos);
  CHECK(cap.find("refused before inflating") != std::string::npos);

  // A 1 MB archive holding a member that claims 1 GiB: deflate cannot expand 1,000,000 bytes that far.
  const std::string megabyte(1000000, '\xff');
  const std::string z = zip({{"x.npy", f4({1}, {1}), megabyte, uint64_t{1} << 30}}, /*deflated=*/true);
  CHECK(z.size() < 1001000);
  CHECK(error_of([&] { NpzArchive::from_bytes(z, "t.npz").array("x"); })
            .find("t.npz: x: damaged ZIP member (1000000 packed bytes cannot inflate to the 1073741824 it claims: deflate expands at most 1032:1); refused before inflating") !=
        std::string::npos);

  // Within those limits, the header's shape must need exactly the declared data: only the header
  // is inflated (the stream holds nothing after it, so reading the data would fail otherwise).
  const std::string header_only = npy_raw("<f4", {10}, "");
  const std::string shape = read_error({{"x.npy", header_only, raw_deflate(header_only, /*finish=*/false), header_only.size() + 40000}}, "x");
  CHECK(shape.find("t.npz: x: holds 40000 data bytes but its shape and dtype <f4 need 40 (truncated or damaged)") != std::string::npos);

  // A stored member is its declared size.
  CHECK(read_error({{"x.npy", f4({1}, {1}), "", 5000}}, "x", /*deflated=*/false).find("t.npz: x: damaged ZIP member (stored sizes differ)") !=
        std::string::npos);
}

TEST_CASE("npz truncated and damaged members are errors naming the archive and key") {
  const std::string x = f4({64, 64}, ramp(64 * 64));
  const std::string packed = raw_deflate(x);
  REQUIRE(packed.size() > 200);

  // The deflate stream cut in half (the directory records the cut size): the header reads, the
  // data runs out.
  const std::string cut = read_error({{"x.npy", x, packed.substr(0, packed.size() / 2)}}, "x");
  INFO(cut);
  CHECK(cut.find("t.npz: x: ") == 0);
  CHECK(cut.find("truncated ZIP member: its data ends after") != std::string::npos);
  CHECK(cut.find("of the 16512 bytes it declares") != std::string::npos);

  // A whole stream that inflates to less than the member declares, and one that inflates to more.
  const std::string shorter = read_error({{"x.npy", x, raw_deflate(x.substr(0, x.size() - 64))}}, "x");
  CHECK(shorter.find("t.npz: x: ") == 0);
  CHECK(shorter.find("truncated ZIP member: its data ends after 16448 of the 16512 bytes it declares") != std::string::npos);
  const std::string longer = read_error({{"x.npy", x, raw_deflate(x + "0123456789")}}, "x");
  CHECK(longer.find("t.npz: x: ") == 0);
  CHECK(longer.find("longer than recorded") != std::string::npos);

  // Damage only the CRC can tell (a bit of the last element), stored and deflated.
  for (bool deflated : {false, true}) {
    std::string flipped = x;
    flipped[x.size() - 3] ^= 0x01;
    CHECK(read_error({{"x.npy", x, deflated ? raw_deflate(flipped) : flipped}}, "x", deflated).find("t.npz: x: CRC mismatch (damaged archive)") !=
          std::string::npos);
  }

  // Whole-archive damage.
  const std::string z = zip({{"x.npy", x}, {"y.npy", i8({1, 2})}});
  CHECK(error_of([&] { NpzArchive::from_bytes(z.substr(0, z.size() / 2), "t.npz"); }).find("t.npz: not a .npz (ZIP) archive") != std::string::npos);
  CHECK(error_of([&] { NpzArchive::from_bytes("", "t.npz"); }).find("t.npz: not a .npz (ZIP) archive: the file is empty") != std::string::npos);
  std::string method = z;  // x compressed with method 12 (bzip2), directory and local header alike
  method[8] = 12;
  method[z.find("PK\x01\x02") + 10] = 12;
  const NpzArchive bz = NpzArchive::from_bytes(method, "t.npz");
  CHECK(error_of([&] { bz.array("x"); }).find("t.npz: x: ZIP compression method 12 is not supported") != std::string::npos);
  CHECK(bz.array("y").ints() == std::vector<int64_t>{1, 2});  // the other members still read
  CHECK(error_of([&] { NpzArchive::from_bytes(zip({{"x.npy", x}, {"x.npy", x}}), "t.npz"); }).find("t.npz: ") == 0);

  test::TempDir t("npz");
  CHECK(error_of([&] { NpzArchive::open(t / "missing.npz"); }).find((t / "missing.npz").string()) != std::string::npos);
  write_npz(t / "ok.npz", {{"x.npy", x}}, /*deflated=*/true);
  CHECK(NpzArchive::open(t / "ok.npz").array("x").floats() == ramp(64 * 64));
}
