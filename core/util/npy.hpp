#pragma once
// NumPy .npy arrays: the one reader and writer (train-gnn's .npz graphs through core/util/npz.hpp,
// CoOpt's image, embedding and optimized-dataset files). Format versions 1-3, C order,
// little-endian <f4 <f8 <i4 <i8 |b1 |u1; anything else (Fortran order, pickled objects, strings,
// structured or big-endian dtypes) is an InputError naming the file, as is a header whose shape
// and dtype disagree with the data that follows or need more than kMaxNpyArrayBytes.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/number_parse.hpp"

namespace mlsys {

// The stated limits on one array. The data cap keeps a damaged or crafted shape (or an .npz member
// claiming gigabytes) from becoming an allocation: 2 GiB holds the largest inputs the systems read
// (Reddit's 232,965 x 602 float32 features are 0.56 GiB). numpy itself refuses headers over 10,000
// bytes; 64 KiB is what a format 1.0 length field can state.
inline constexpr uint64_t kMaxNpyArrayBytes = uint64_t{1} << 31;
inline constexpr uint64_t kMaxNpyHeaderBytes = uint64_t{1} << 16;
// Bytes that always hold the header's length field (magic, version, length).
inline constexpr uint64_t kNpyLeadBytes = 12;

enum class NpyType : uint8_t { f4, f8, i4, i8, b1, u1 };

// What a .npy header states about the data after it.
struct NpyHeader {
  NpyType type = NpyType::f4;
  std::string descr;           // "<f4"
  std::vector<int64_t> shape;  // () for a scalar
  uint64_t header_bytes = 0;   // magic, version, length field and dict: the data starts here
  uint64_t data_bytes = 0;     // elements x element size, at most kMaxNpyArrayBytes
};

// One array, C order, its raw little-endian elements.
struct NpyArray {
  std::string where;  // "file" or "file: key", for error messages
  NpyType type = NpyType::f4;
  std::vector<int64_t> shape;  // () for a scalar
  std::string bytes;

  int64_t size() const;  // number of elements (1 for a scalar)
  int64_t dim(size_t i) const { return shape.at(i); }
  int64_t rows() const { return shape.empty() ? 0 : shape[0]; }
  int64_t row_size() const;  // product of shape[1:]
  double value(int64_t i) const;  // element i as double
  // Every element as double / as int64 / as float. ints() refuses a non-integral floating value,
  // floats() a NaN or infinite one (or one beyond float's range), naming the element.
  std::vector<double> doubles() const;
  std::vector<int64_t> ints() const;
  std::vector<float> floats() const;
  // Every element as an id or count checked against `rule` (core/util/number_parse.hpp): also
  // refuses a boolean array (True/False are never node ids or sizes), naming the element.
  std::vector<int64_t> ints(const IntRule& rule) const;
};

// From the first bytes of a .npy file (at least 10; a short `lead` is "not a .npy array"): how many
// bytes its header takes. Refuses unknown versions and headers over kMaxNpyHeaderBytes.
uint64_t npy_header_size(std::string_view lead, const std::string& where);
// Parses the whole header (its first npy_header_size bytes) without touching the data.
NpyHeader parse_npy_header(std::string_view header, const std::string& where);
// One whole .npy file in memory; its size must be the header's plus the shape's.
NpyArray parse_npy(std::string_view bytes, const std::string& where);
// A .npy (or .npy.gz) file; InputError naming it when missing, unreadable or malformed.
NpyArray read_npy(const std::filesystem::path& path);

// A .npy file as numpy's format 1.0 writes it (header padded to 64 bytes) holding `data`, the raw
// little-endian elements of `shape`.
std::string npy_file(NpyType type, const std::vector<int64_t>& shape, std::string_view data);
// Written atomically (core/util/fs.hpp).
void write_npy(const std::filesystem::path& path, const std::vector<int64_t>& shape, const std::vector<float>& data);
void write_npy(const std::filesystem::path& path, const std::vector<int64_t>& shape, const std::vector<int32_t>& data);

}  // namespace mlsys
