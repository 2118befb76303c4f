#pragma once
// Writes .npy arrays and .npz (ZIP) archives in tests, so every layout the .npz reader accepts is
// built at test time from values the test states (entries stored, or raw-deflated as
// numpy.savez_compressed does).
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/common/test_util.hpp"

namespace mlsys::gnn::npztest {

// One .npy file: header dict padded so the data starts at a multiple of 64 bytes (format 1.0).
inline std::string npy_raw(const std::string& descr, const std::vector<int64_t>& shape, const std::string& data,
                           bool fortran = false) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  std::string h = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + dims + "), }";
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(h.size() & 0xff);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

template <class T>
std::string npy(const char* descr, const std::vector<int64_t>& shape, const std::vector<T>& v) {
  std::string data(v.size() * sizeof(T), '\0');
  if (!v.empty()) std::memcpy(data.data(), v.data(), data.size());
  return npy_raw(descr, shape, data);
}
inline std::string f4(const std::vector<int64_t>& shape, const std::vector<float>& v) { return npy("<f4", shape, v); }
inline std::string f8(const std::vector<int64_t>& shape, const std::vector<double>& v) { return npy("<f8", shape, v); }
inline std::string i4(const std::vector<int64_t>& shape, const std::vector<int32_t>& v) { return npy("<i4", shape, v); }
inline std::string i8(const std::vector<int64_t>& shape, const std::vector<int64_t>& v) { return npy("<i8", shape, v); }
inline std::string b1(const std::vector<int64_t>& shape, const std::vector<uint8_t>& v) { return npy("|b1", shape, v); }
inline std::string u1(const std::vector<int64_t>& shape, const std::vector<uint8_t>& v) { return npy("|u1", shape, v); }
inline std::string i8(const std::vector<int64_t>& v) { return i8({static_cast<int64_t>(v.size())}, v); }

struct Member {
  std::string name;   // "x.npy"
  std::string bytes;  // the .npy file
};

inline void put16(std::string& s, uint32_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>((v >> 8) & 0xff);
}
inline void put32(std::string& s, uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}

inline std::string raw_deflate(const std::string& in) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A ZIP archive of `members` (method 0 stored, or 8 deflate), as numpy.savez writes one.
inline std::string zip(const std::vector<Member>& members, bool deflated = false) {
  std::string out, dir;
  for (const auto& m : members) {
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(m.bytes.data()), static_cast<uInt>(m.bytes.size())));
    const std::string data = deflated ? raw_deflate(m.bytes) : m.bytes;
    const uint32_t offset = static_cast<uint32_t>(out.size());
    auto common = [&](std::string& s) {
      put16(s, 20);                  // version needed
      put16(s, 0);                   // flags
      put16(s, deflated ? 8 : 0);    // method
      put16(s, 0);                   // time
      put16(s, 0x21);                // date
      put32(s, crc);
      put32(s, static_cast<uint32_t>(data.size()));
      put32(s, static_cast<uint32_t>(m.bytes.size()));
      put16(s, static_cast<uint32_t>(m.name.size()));
      put16(s, 0);                   // extra length
    };
    put32(out, 0x04034b50);
    common(out);
    out += m.name;
    out += data;
    put32(dir, 0x02014b50);
    put16(dir, 20);                  // version made by
    common(dir);
    put16(dir, 0);                   // comment length
    put16(dir, 0);                   // disk
    put16(dir, 0);                   // internal attributes
    put32(dir, 0);                   // external attributes
    put32(dir, offset);
    dir += m.name;
  }
  const uint32_t dir_at = static_cast<uint32_t>(out.size());
  out += dir;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(members.size()));
  put16(out, static_cast<uint32_t>(members.size()));
  put32(out, static_cast<uint32_t>(dir.size()));
  put32(out, dir_at);
  put16(out, 0);
  return out;
}

inline void write_npz(const std::filesystem::path& p, const std::vector<Member>& members, bool deflated = false) {
  mlsys::test::write_text(p, zip(members, deflated));
}

// The 6-node graph of the text tests (two triangles joined by edge 2-3), one direction per edge.
inline const std::vector<int64_t> kRows = {0, 0, 1, 2, 3, 3, 4};
inline const std::vector<int64_t> kCols = {1, 2, 2, 3, 4, 5, 5};

// gnn-benchmark layout (Shchur et al.): adjacency and features as CSR, labels per node.
// Feature row 2 lists column 1 before column 0 and repeats column 1 (0.25 + 0.25: scipy sums).
inline std::vector<Member> benchmark_members() {
  return {{"adj_data.npy", f4({7}, {1, 1, 1, 1, 1, 1, 1})},
          {"adj_indices.npy", i4({7}, {1, 2, 2, 3, 4, 5, 5})},
          {"adj_indptr.npy", i4({7}, {0, 2, 3, 4, 6, 7, 7})},
          {"adj_shape.npy", i8({2}, {6, 6})},
          {"attr_data.npy", f4({8}, {1, 1, 0.25f, 1, 0.25f, 1, 1, 2})},
          {"attr_indices.npy", i4({8}, {0, 0, 1, 0, 1, 1, 1, 1})},
          {"attr_indptr.npy", i4({7}, {0, 1, 2, 5, 6, 7, 8})},
          {"attr_shape.npy", i8({2}, {6, 2})},
          {"labels.npy", i8({0, 0, 0, 1, 1, 1})},
          // gnn-benchmark files also carry pickled name tables; a loader never reads them.
          {"idx_to_node.npy", npy_raw("|O", {6}, std::string(48, '\0'))}};
}

// PyG export: dense x, edge_index (2 x E), y, boolean masks.
inline std::vector<Member> pyg_members() {
  std::vector<int64_t> ei = kRows;
  ei.insert(ei.end(), kCols.begin(), kCols.end());
  return {{"x.npy", f4({6, 2}, {1, 0, 1, 0, 1, 0.5f, 0, 1, 0, 1, 0, 2})},
          {"edge_index.npy", i8({2, 7}, ei)},
          {"y.npy", i8({0, 0, 0, 1, 1, -1})},
          {"train_mask.npy", b1({6}, {1, 0, 0, 0, 1, 0})},
          {"val_mask.npy", b1({6}, {0, 1, 0, 1, 0, 0})},
          {"test_mask.npy", b1({6}, {0, 0, 1, 0, 0, 0})}};
}

}  // namespace mlsys::gnn::npztest
