#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "tests/common/bad_numbers.hpp"
#include "tests/common/test_util.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/csv.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/data/image_file.hpp"
#include "dataopt/data/npy.hpp"
#include "dataopt/data/synthetic.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {

std::string read_file_raw(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("idx round trip, plain and gzipped, with row ranges") {
  test::TempDir dir("idx");
  ImageSet s = make_synthetic({25, 5, 8, 3, 7});
  for (const char* ext : {"", ".gz"}) {
    write_idx_images(dir / (std::string("train-images-idx3-ubyte") + ext), s);
    write_idx_labels(dir / (std::string("train-labels-idx1-ubyte") + ext), s.labels);
    ImageSet r = read_idx_split(dir.path(), "train");
    CHECK(r.n == 25);
    CHECK(r.height == 8);
    CHECK(r.classes == 5);
    CHECK(r.labels == s.labels);
    for (size_t i = 0; i < s.pixels.size(); ++i) CHECK(r.pixels[i] == doctest::Approx(s.pixels[i]).epsilon(0.003));
    ImageSet part = read_idx_split(dir.path(), "train", 10, 13);
    REQUIRE(part.n == 3);
    CHECK(part.labels[0] == s.labels[10]);
    CHECK(part.pixels[5] == doctest::Approx(r.pixels[10 * 64 + 5]));
    std::filesystem::remove(dir / (std::string("train-images-idx3-ubyte") + ext));
    std::filesystem::remove(dir / (std::string("train-labels-idx1-ubyte") + ext));
  }
}

TEST_CASE("idx rows in any order, gzipped or not, and the uncompressed cache") {
  test::TempDir dir("idxrows");
  ImageSet s = make_synthetic({40, 4, 6, 9, 7});
  for (const char* ext : {"", ".gz"}) {
    test::TempDir d(std::string("idxrows") + ext);
    write_idx_images(d / (std::string("train-images-idx3-ubyte") + ext), s);
    write_idx_labels(d / (std::string("train-labels-idx1-ubyte") + ext), s.labels);
    const ImageSet whole = read_idx_split(d.path(), "train");
    const std::vector<int64_t> rows{31, 2, 3, 4, 39, 2, 0};
    const ImageSet picked = read_idx_split_rows(d.path(), "train", rows);
    REQUIRE(picked.n == 7);
    const ImageSet expect = whole.subset(rows);
    CHECK(picked.pixels == expect.pixels);
    CHECK(picked.labels == expect.labels);
    CHECK_THROWS_WITH_AS(read_idx_split_rows(d.path(), "train", {3, 40}), doctest::Contains("row 40"), InputError);
    // The cache: gzipped images get one uncompressed copy; plain files are read in place.
    const std::filesystem::path cache = dir / "cache";
    const std::filesystem::path src = find_idx_file(d.path(), "train", "images");
    const std::filesystem::path copy = uncompressed_copy(src, cache);
    CHECK((copy == src) == (std::string(ext).empty()));
    CHECK(read_idx_split(d.path(), "train", 5, 9, cache).pixels == whole.subset({5, 6, 7, 8}).pixels);
    CHECK(read_idx_split_rows(d.path(), "train", rows, cache).pixels == expect.pixels);
    CHECK(uncompressed_copy(src, cache) == copy);
  }
  // A truncated gzip stream is reported, not read as short data.
  write_idx_images(dir / "t.gz", s);
  std::string bytes = read_file_raw(dir / "t.gz");
  write_file_atomic(dir / "cut.gz", bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH_AS(read_idx_images(dir / "cut.gz"), doctest::Contains("truncated"), InputError);
}

TEST_CASE("idx error paths name the file and the problem") {
  test::TempDir dir("idxbad");
  ImageSet s = make_synthetic({10, 2, 6, 1, 7});
  write_idx_images(dir / "train-images-idx3-ubyte", s);
  std::vector<int32_t> fewer(s.labels.begin(), s.labels.begin() + 7);
  write_idx_labels(dir / "train-labels-idx1-ubyte", fewer);
  CHECK_THROWS_WITH_AS(read_idx_split(dir.path(), "train"), doctest::Contains("mismatched IDX pair"), InputError);
  CHECK_THROWS_WITH_AS(read_idx_images(dir / "train-labels-idx1-ubyte"), doctest::Contains("labels file?"), InputError);
  CHECK_THROWS_WITH_AS(read_idx_labels(dir / "train-images-idx3-ubyte"), doctest::Contains("images file?"), InputError);
  std::string bytes = read_file(dir / "train-images-idx3-ubyte");
  write_file_atomic(dir / "cut", bytes.substr(0, bytes.size() - 5));
  CHECK_THROWS_WITH_AS(read_idx_images(dir / "cut"), doctest::Contains("truncated"), InputError);
  write_file_atomic(dir / "text", "hello world");
  CHECK_THROWS_WITH_AS(read_idx_images(dir / "text"), doctest::Contains("not an IDX file"), InputError);
  CHECK_THROWS_WITH_AS(read_idx_split(dir.path(), "test"), doctest::Contains("no test "), InputError);
  CHECK_THROWS_AS(read_idx_images(dir / "missing"), InputError);
  CHECK_THROWS_WITH_AS(read_idx_images(dir / "train-images-idx3-ubyte", 5, 11), doctest::Contains("rows [5, 11)"), InputError);
}

TEST_CASE("npy round trip and dtype conversions") {
  test::TempDir dir("npy");
  std::vector<float> v{1.5f, -2, 3, 4, 5, 6};
  write_npy(dir / "a.npy", {2, 3}, v);
  NpyArray a = read_npy(dir / "a.npy");
  CHECK(a.shape == std::vector<int64_t>{2, 3});
  CHECK(a.floats() == v);
  CHECK(read_file(dir / "a.npy").find("'descr': '<f4'") != std::string::npos);
  write_npy(dir / "i.npy", {3}, std::vector<int32_t>{7, -1, 3});
  NpyArray i = read_npy(dir / "i.npy");
  CHECK(i.shape == std::vector<int64_t>{3});
  CHECK(i.floats() == std::vector<float>{7, -1, 3});
  // A float64 file written byte by byte the way numpy does.
  std::string hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
  hdr.append(64 - (10 + hdr.size() + 1) % 64, ' ');
  hdr.push_back('\n');
  std::string f8("\x93NUMPY\x01\x00", 8);
  f8.push_back(static_cast<char>(hdr.size()));
  f8.push_back(0);
  f8 += hdr;
  double d[2] = {0.25, -8};
  f8.append(reinterpret_cast<const char*>(d), sizeof d);
  write_file_atomic(dir / "d.npy", f8);
  CHECK(read_npy(dir / "d.npy").floats() == std::vector<float>{0.25f, -8});
}

TEST_CASE("npy error paths") {
  test::TempDir dir("npybad");
  write_npy(dir / "a.npy", {4}, std::vector<float>{1, 2, 3, 4});
  std::string b = read_file(dir / "a.npy");
  write_file_atomic(dir / "cut.npy", b.substr(0, b.size() - 4));
  CHECK_THROWS_WITH_AS(read_npy(dir / "cut.npy"), doctest::Contains("truncated"), InputError);
  std::string fortran = b;
  fortran.replace(fortran.find("False"), 5, "True ");
  write_file_atomic(dir / "f.npy", fortran);
  CHECK_THROWS_WITH_AS(read_npy(dir / "f.npy"), doctest::Contains("Fortran"), InputError);
  std::string c16 = b;
  c16.replace(c16.find("<f4"), 3, "<c8");
  write_file_atomic(dir / "c.npy", c16);
  CHECK_THROWS_WITH_AS(read_npy(dir / "c.npy"), doctest::Contains("dtype '<c8' is not supported"), InputError);
  write_file_atomic(dir / "x.npy", "not numpy");
  CHECK_THROWS_WITH_AS(read_npy(dir / "x.npy"), doctest::Contains("not a .npy array"), InputError);
}

TEST_CASE("csv matrix and digits-style images") {
  test::TempDir dir("csv");
  test::write_text(dir / "m.csv", "a,b,c\n1,2,3\n4,5,6\n");
  Tensor m = read_csv_matrix(dir / "m.csv");
  CHECK(m.shape() == Shape{2, 3});
  CHECK(m.to_vector<float>()[5] == 6);
  test::write_text(dir / "ragged.csv", "1,2,3\n4,5\n");
  CHECK_THROWS_WITH_AS(read_csv_matrix(dir / "ragged.csv"), doctest::Contains("ragged.csv:2"), InputError);
  test::write_text(dir / "bad.csv", "1,2\n3,x\n");
  CHECK_THROWS_WITH_AS(read_csv_matrix(dir / "bad.csv"), doctest::Contains("bad.csv:2: non-numeric"), InputError);
  // 2x2 images + label, values 0-16 like sklearn digits.
  test::write_text(dir / "img.csv", "0,16,8,4,1\n16,0,0,0,0\n");
  ImageSet s = read_csv_images(dir / "img.csv");
  CHECK(s.n == 2);
  CHECK(s.height == 2);
  CHECK(s.pixels[1] == doctest::Approx(1.0));
  CHECK(s.pixels[2] == doctest::Approx(0.5));
  CHECK(s.labels == std::vector<int32_t>{1, 0});
  test::write_text(dir / "nonsquare.csv", "1,2,3,0\n");
  CHECK_THROWS_WITH_AS(read_csv_images(dir / "nonsquare.csv"), doctest::Contains("square number"), InputError);
}

TEST_CASE("other-domain image datasets from shared data: digits CSV, USPS and notMNIST IDX folders") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  ImageSet s = read_image_file({data / "images/sklearn_digits/digits.csv.gz", "train", {}});
  CHECK(s.n == 1797);
  CHECK(s.height == 8);
  CHECK(s.classes == 10);
  ImageSet big = resize_images(s, 28, 28);
  CHECK(big.dim() == 784);
  CHECK(big.labels == s.labels);
  ImageSet usps = read_image_file({data / "images/usps", "train", {}});
  CHECK(usps.n == 7291);
  CHECK(usps.height == 16);
  CHECK(usps.classes == 10);
  ImageSet letters = read_image_file({data / "images/notmnist_small", "test", {}});
  CHECK(letters.n == 10000);
  CHECK(letters.height == 28);
  // notMNIST_small ships no train split: asking for it names what was looked for.
  CHECK_THROWS_WITH_AS(read_image_file({data / "images/notmnist_small", "train", {}}), doctest::Contains("no train labels file"),
                       InputError);
}

TEST_CASE("read_image_file: IDX folder, CSV and .npy images with optional labels, errors name the file") {
  test::TempDir dir("imgfile");
  ImageSet train = make_synthetic({30, 3, 10, 1, 2}), test = make_synthetic({12, 3, 10, 2, 2});
  std::filesystem::create_directories(dir / "idx");
  write_idx_images(dir / "idx/train-images-idx3-ubyte", train);
  write_idx_labels(dir / "idx/train-labels-idx1-ubyte", train.labels);
  write_idx_images(dir / "idx/t10k-images-idx3-ubyte.gz", test);
  write_idx_labels(dir / "idx/t10k-labels-idx1-ubyte.gz", test.labels);
  const ImageSet a = read_image_file({dir / "idx", "train", {}});
  CHECK(a.n == 30);
  CHECK(a.labels == train.labels);
  CHECK(read_image_file({dir / "idx", "test", {}}).n == 12);
  CHECK(image_file_inputs({dir / "idx", "test", {}}).size() == 2);
  CHECK_THROWS_AS(read_image_file({dir / "idx", "valid", {}}), ConfigError);
  // .npy [N, H, W] of bytes-like values (scaled by their maximum) with labels in a second file.
  std::vector<float> px(4 * 3 * 5);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>(i % 51) * 5;  // max 250
  write_npy(dir / "im.npy", {4, 3, 5}, px);
  write_npy(dir / "lab.npy", {4}, std::vector<int32_t>{2, 0, 1, 2});
  const ImageSet n = read_image_file({dir / "im.npy", "train", dir / "lab.npy"});
  CHECK(n.n == 4);
  CHECK(n.height == 3);
  CHECK(n.width == 5);
  CHECK(n.classes == 3);
  CHECK(n.pixels[1] == doctest::Approx(5.0 / 250));
  CHECK(image_file_inputs({dir / "im.npy", "train", dir / "lab.npy"}).size() == 2);
  // [N, side*side] rows are square images; unlabeled without a labels file.
  write_npy(dir / "flat.npy", {2, 9}, std::vector<float>(18, 0.5f));
  const ImageSet f = read_image_file({dir / "flat.npy", "train", {}});
  CHECK(f.height == 3);
  CHECK_FALSE(f.labeled());
  write_npy(dir / "odd.npy", {2, 10}, std::vector<float>(20, 0.5f));
  CHECK_THROWS_WITH_AS(read_image_file({dir / "odd.npy", "train", {}}), doctest::Contains("not square images"), InputError);
  write_npy(dir / "short.npy", {2}, std::vector<int32_t>{1, 2});
  CHECK_THROWS_WITH_AS(read_image_file({dir / "im.npy", "train", dir / "short.npy"}), doctest::Contains("expected 4 labels"),
                       InputError);
  CHECK_THROWS_WITH_AS(read_image_file({dir / "none.npy", "train", {}}), doctest::Contains("image dataset not found"),
                       InputError);
  test::write_text(dir / "x.txt", "1\n");
  CHECK_THROWS_WITH_AS(read_image_file({dir / "x.txt", "train", {}}), doctest::Contains("unknown image dataset format"),
                       InputError);
}

TEST_CASE("synthetic generator is deterministic and labeled") {
  ImageSet a = make_synthetic({40, 4, 12, 5, 7}), b = make_synthetic({40, 4, 12, 5, 7});
  CHECK(a.pixels == b.pixels);
  CHECK(a.classes == 4);
  ImageSet c = make_synthetic({40, 4, 12, 6, 7});
  CHECK(a.pixels != c.pixels);
}

TEST_CASE("bad numbers: CSV matrix cells and image labels refuse each, naming the field") {
  test::TempDir dir("csvbad");
  for (const auto& b : test::kBadNumbers) {
    CAPTURE(b.text);
    // A cell is a float32 feature: NaN and 1e300 (no float32) are refused, naming the row.
    test::write_text(dir / "m.csv", "1,2\n3," + std::string(b.text) + "\n");
    const std::string cell = test::thrown_message<InputError>([&] { read_csv_matrix(dir / "m.csv"); });
    if (b.refused_as_feature) CHECK_MESSAGE(cell.find("m.csv:2: non-numeric or non-finite cell") != std::string::npos, cell);
    // A label is a class count: every bad number is refused (2^31 and 2^63 read as float32 first).
    test::write_text(dir / "img.csv", "0,1,2,3,0\n1,2,3,4," + std::string(b.text) + "\n");
    const std::string label = test::thrown_message<InputError>([&] { read_csv_images(dir / "img.csv"); });
    if (b.refused_as_count) CHECK_MESSAGE(label.find("img.csv") != std::string::npos, label);
    if (b.refused_as_count && !b.refused_as_feature)
      CHECK_MESSAGE(label.find("data row 2: field 'label'") != std::string::npos, label);
  }
}

TEST_CASE("finding: an IDX label 200 in a 10-class set is refused, naming the image") {
  test::TempDir dir("idxlabel");
  ImageSet s = make_synthetic({30, 10, 8, 3, 7});
  std::vector<int32_t> labels = s.labels;
  REQUIRE(*std::max_element(labels.begin(), labels.end()) == 9);
  labels[17] = 200;
  write_idx_labels(dir / "l", labels);
  const std::string e = test::thrown_message<InputError>([&] { read_idx_labels(dir / "l"); });
  CHECK_MESSAGE(e.find("label of image 17: field 'label' = '200': too large (expected an integer from 0 to 9)") != std::string::npos, e);
  labels[17] = 9;
  write_idx_labels(dir / "l", labels);
  CHECK(read_idx_labels(dir / "l") == labels);
}

TEST_CASE("finding: a truncated IDX .gz names the gzip error, not a size read from its damaged tail") {
  test::TempDir dir("idxgz");
  ImageSet s = make_synthetic({200, 5, 16, 3, 7});
  write_idx_images(dir / "i.gz", s);
  const std::string bytes = read_file_raw(dir / "i.gz");
  write_file_atomic(dir / "cut.gz", bytes.substr(0, bytes.size() * 2 / 3));
  const std::string e = test::thrown_message<InputError>([&] { read_idx_images(dir / "cut.gz"); });
  CHECK_MESSAGE(e.find("cut.gz: truncated or corrupt gzip file") != std::string::npos, e);
  CHECK_MESSAGE(e.find("the file has") == std::string::npos, e);
}
