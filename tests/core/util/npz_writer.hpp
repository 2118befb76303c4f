#pragma once
// Writes .npy arrays and .npz (ZIP) archives in tests, so every archive the .npz reader
// (core/util/npz.hpp) accepts or refuses is built at test time from values the test states
// (entries stored, or raw-deflated as numpy.savez_compressed does; damaged ones by stating a
// member's compressed bytes or declared size).
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/common/test_util.hpp"

namespace mlsys::npztest {

// One .npy file whose header states `shape_text` as the shape tuple's inside (so it may say what no
// int64 can): header dict padded so the data starts at a multiple of 64 bytes (format 1.0).
inline std::string npy_text(const std::string& descr, const std::string& shape_text, const std::string& data, bool fortran = false) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + shape_text + "), }";
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(h.size() & 0xff);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

inline std::string npy_raw(const std::string& descr, const std::vector<int64_t>& shape, const std::string& data,
                           bool fortran = false) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  return npy_text(descr, dims, data, fortran);
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
  // Damage on purpose: the compressed bytes written (empty: `bytes`, deflated when the archive is)
  // and the uncompressed size the headers declare (0: bytes.size(); from 0xffffffff on it is
  // written as ZIP64). The CRC is always that of `bytes`.
  std::string packed = {};
  uint64_t declared = 0;
};

inline void put16(std::string& s, uint32_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>((v >> 8) & 0xff);
}
inline void put32(std::string& s, uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}

// Raw deflate of `in`; `finish` false leaves the stream open after a full flush (its data all
// decodable, but no final block: a stream cut short).
inline std::string raw_deflate(const std::string& in, bool finish = true) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, finish ? Z_FINISH : Z_FULL_FLUSH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A ZIP archive of `members` (method 0 stored, or 8 deflate), as numpy.savez writes one.
inline std::string zip(const std::vector<Member>& members, bool deflated = false) {
  std::string out, dir;
  for (const auto& m : members) {
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(m.bytes.data()), static_cast<uInt>(m.bytes.size())));
    const std::string data = !m.packed.empty() ? m.packed : deflated ? raw_deflate(m.bytes) : m.bytes;
    const uint64_t size = m.declared ? m.declared : m.bytes.size();
    const bool zip64 = size >= 0xffffffffu;
    const uint32_t offset = static_cast<uint32_t>(out.size());
    // ZIP64: both sizes read 0xffffffff and move to extra field 1 (uncompressed, then compressed).
    std::string extra;
    if (zip64) {
      put16(extra, 1);
      put16(extra, 16);
      put32(extra, static_cast<uint32_t>(size));
      put32(extra, static_cast<uint32_t>(size >> 32));
      put32(extra, static_cast<uint32_t>(data.size()));
      put32(extra, 0);
    }
    auto common = [&](std::string& s) {
      put16(s, zip64 ? 45 : 20);     // version needed
      put16(s, 0);                   // flags
      put16(s, deflated ? 8 : 0);    // method
      put16(s, 0);                   // time
      put16(s, 0x21);                // date
      put32(s, crc);
      put32(s, zip64 ? 0xffffffffu : static_cast<uint32_t>(data.size()));
      put32(s, zip64 ? 0xffffffffu : static_cast<uint32_t>(size));
      put16(s, static_cast<uint32_t>(m.name.size()));
      put16(s, static_cast<uint32_t>(extra.size()));
    };
    put32(out, 0x04034b50);
    common(out);
    out += m.name;
    out += extra;
    out += data;
    put32(dir, 0x02014b50);
    put16(dir, zip64 ? 45 : 20);     // version made by
    common(dir);
    put16(dir, 0);                   // comment length
    put16(dir, 0);                   // disk
    put16(dir, 0);                   // internal attributes
    put32(dir, 0);                   // external attributes
    put32(dir, offset);
    dir += m.name;
    dir += extra;
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

}  // namespace mlsys::npztest
