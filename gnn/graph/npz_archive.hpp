#pragma once
// A NumPy .npz archive: a ZIP file (entries stored or deflated, ZIP64 allowed) of .npy arrays, as
// numpy.savez / savez_compressed and scipy.sparse.save_npz write it. The archive's directory is read
// once; an array is inflated and its .npy header checked only when asked for, so keys a loader
// does not use (pickled string tables in gnn-benchmark files) never stop a load.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mlsys::gnn {

// The element types accepted (little-endian .npy descr <f4 <f8 <i4 <i8 |b1 |u1).
enum class NpyType : uint8_t { f4, f8, i4, i8, b1, u1 };

// One array, C order, its raw little-endian elements.
struct NpyArray {
  std::string where;  // "file: key" for error messages
  NpyType type = NpyType::f4;
  std::vector<int64_t> shape;  // () for a scalar
  std::string bytes;

  int64_t size() const;   // number of elements (1 for a scalar)
  int64_t dim(size_t i) const { return shape.at(i); }
  // Every element as double / as int64. ints() refuses a non-integral floating value (naming it).
  std::vector<double> doubles() const;
  std::vector<int64_t> ints() const;
  double value(int64_t i) const;  // element i as double
};

class NpzArchive {
 public:
  // Reads the file; throws InputError naming it when it is not a readable ZIP archive.
  static NpzArchive open(const std::filesystem::path& file);
  // The same from bytes in memory; `name` is what errors call the archive.
  static NpzArchive from_bytes(std::string bytes, std::string name);

  const std::string& name() const { return name_; }
  // Keys as numpy.load reports them: member names without the ".npy" suffix, sorted.
  std::vector<std::string> keys() const;
  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  // Inflates and parses one array. Throws InputError naming the archive and key: missing key,
  // damaged entry (CRC), Fortran order, pickled objects, strings or any other dtype not listed above.
  NpyArray array(const std::string& key) const;

 private:
  struct Entry {
    uint64_t local_offset = 0, packed = 0, size = 0;
    uint32_t crc = 0;
    uint16_t method = 0;
  };
  std::string inflate(const std::string& key, const Entry& e) const;

  std::string name_;
  std::string bytes_;
  std::map<std::string, Entry> entries_;
};

// The .npy parser alone: `bytes` is one whole .npy file, `where` names it in errors.
NpyArray parse_npy(const std::string& bytes, const std::string& where);

}  // namespace mlsys::gnn
