#pragma once
// A NumPy .npz archive: a ZIP file (members stored or deflated, ZIP64 allowed) of .npy arrays, as
// numpy.savez / savez_compressed and scipy.sparse.save_npz write it, read through libzip. The
// archive's directory is read once; an array is read only when asked for, so keys a loader does
// not use (pickled string tables in gnn-benchmark files) never stop a load.
//
// Before any of a member's data is inflated, its size from the ZIP directory is checked: at most
// kMaxNpyArrayBytes plus a header (core/util/npy.hpp), no more than deflate can produce from its
// compressed size (1032:1), and exactly what the .npy header's shape and dtype need (the header,
// at most kMaxNpyHeaderBytes, is inflated first). A damaged or crafted archive is an InputError
// naming the file and key, never an allocation of what it claims.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/util/npy.hpp"

namespace mlsys {

class NpzArchive {
 public:
  // Opens the file; throws InputError naming it when it is not a readable ZIP archive.
  static NpzArchive open(const std::filesystem::path& file);
  // The same from bytes in memory; `name` is what errors call the archive.
  static NpzArchive from_bytes(std::string bytes, std::string name);
  NpzArchive(NpzArchive&&) noexcept;
  NpzArchive& operator=(NpzArchive&&) noexcept;
  ~NpzArchive();

  const std::string& name() const { return name_; }
  // Keys as numpy.load reports them: member names without the ".npy" suffix, sorted.
  std::vector<std::string> keys() const;
  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  // Reads and parses one array. Throws InputError naming the archive and key: missing key, a size
  // over the cap or out of line with the header, damaged data (CRC), compression other than
  // stored/deflate, and every .npy refusal (Fortran order, pickled objects, other dtypes).
  // One archive reads one member at a time (libzip archives are not shared between threads).
  NpyArray array(const std::string& key) const;

 private:
  struct Zip;  // the libzip handle (and the bytes from_bytes reads)
  NpzArchive(std::unique_ptr<Zip> zip, std::string name);

  std::unique_ptr<Zip> zip_;
  std::string name_;
  std::map<std::string, uint64_t> entries_;  // key -> libzip member index
};

}  // namespace mlsys
