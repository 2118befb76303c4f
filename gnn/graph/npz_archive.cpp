#include "gnn/graph/npz_archive.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys::gnn {

static_assert(std::endian::native == std::endian::little, ".npy little-endian elements are read in place");

namespace {

// Bounds-checked little-endian reads from a byte buffer; `what` names the buffer in errors.
struct Bytes {
  std::string_view b;
  const std::string& what;
  uint64_t get(uint64_t at, int n) const {
    if (at > b.size() || b.size() - at < static_cast<uint64_t>(n))
      throw InputError(fmt::format("{}: truncated or damaged ZIP archive (a record at byte {} runs past the end)", what, at));
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
    return v;
  }
  uint16_t u16(uint64_t at) const { return static_cast<uint16_t>(get(at, 2)); }
  uint32_t u32(uint64_t at) const { return static_cast<uint32_t>(get(at, 4)); }
  uint64_t u64(uint64_t at) const { return get(at, 8); }
  std::string_view slice(uint64_t at, uint64_t n) const {
    get(at, 0);
    if (b.size() - at < n) throw InputError(fmt::format("{}: truncated or damaged ZIP archive ({} bytes at byte {} run past the end)", what, n, at));
    return b.substr(at, n);
  }
};

constexpr uint32_t kEndOfDirectory = 0x06054b50, kZip64Locator = 0x07064b50, kZip64End = 0x06064b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50, kLocalHeader = 0x04034b50;
constexpr uint32_t kZip32Max = 0xffffffffu;
// Deflate cannot expand data by more than about 1032:1; a larger claimed size is a damaged header
// (and would otherwise make us allocate whatever it says).
constexpr uint64_t kMaxDeflateRatio = 1032;

// ---- the .npy header: a Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct HeaderValue {
  enum Kind { text, boolean, tuple, other } kind = other;
  std::string s;
  bool b = false;
  std::vector<int64_t> ints;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view h, const std::string& where) : h_(h), where_(where) {}

  std::map<std::string, HeaderValue> dict() {
    std::map<std::string, HeaderValue> out;
    expect('{');
    while (true) {
      ws();
      if (peek() == '}') break;
      std::string key = quoted();
      ws();
      expect(':');
      out[key] = value();
      ws();
      if (peek() == ',') ++i_;
      else if (peek() != '}') fail("expected ',' or '}'");
    }
    return out;
  }

 private:
  char peek() const { return i_ < h_.size() ? h_[i_] : '\0'; }
  void ws() {
    while (i_ < h_.size() && (h_[i_] == ' ' || h_[i_] == '\t' || h_[i_] == '\n')) ++i_;
  }
  void expect(char c) {
    ws();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++i_;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError(fmt::format("{}: malformed .npy header ({} at character {})", where_, msg, i_));
  }
  std::string quoted() {
    ws();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const size_t end = h_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(h_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return s;
  }
  int64_t integer() {
    ws();
    int64_t v = 0;
    size_t digits = 0;
    while (i_ < h_.size() && h_[i_] >= '0' && h_[i_] <= '9') {
      if (v > (INT64_MAX - 9) / 10) fail("dimension too large");
      v = v * 10 + (h_[i_++] - '0');
      ++digits;
    }
    if (digits == 0) fail("expected a non-negative integer dimension");
    if (peek() == 'L') ++i_;  // Python 2 long suffix (format 1.0 files from old numpy)
    return v;
  }
  HeaderValue value() {
    ws();
    HeaderValue v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v.kind = HeaderValue::text;
      v.s = quoted();
    } else if (h_.substr(i_, 4) == "True" || h_.substr(i_, 5) == "False") {
      v.kind = HeaderValue::boolean;
      v.b = h_[i_] == 'T';
      i_ += v.b ? 4 : 5;
    } else if (c == '(') {
      v.kind = HeaderValue::tuple;
      ++i_;
      while (true) {
        ws();
        if (peek() == ')') break;
        v.ints.push_back(integer());
        ws();
        if (peek() == ',') ++i_;
        else if (peek() != ')') fail("expected ',' or ')' in the shape");
      }
      ++i_;
    } else {
      // A structured dtype (a list of fields) or anything else: skip to the matching close so the
      // caller can say what it was.
      int depth = 0;
      const size_t start = i_;
      for (; i_ < h_.size(); ++i_) {
        const char d = h_[i_];
        if (d == '[' || d == '(' || d == '{') ++depth;
        else if (d == ']' || d == ')' || d == '}') {
          if (depth == 0) break;
          --depth;
        } else if (d == ',' && depth == 0) break;
      }
      v.s = std::string(h_.substr(start, i_ - start));
    }
    return v;
  }

  std::string_view h_;
  const std::string& where_;
  size_t i_ = 0;
};

struct DtypeName {
  const char* descr;
  NpyType type;
  int bytes;
};
constexpr DtypeName kDtypes[] = {{"<f4", NpyType::f4, 4}, {"<f8", NpyType::f8, 8}, {"<i4", NpyType::i4, 4},
                                 {"<i8", NpyType::i8, 8}, {"|b1", NpyType::b1, 1}, {"|u1", NpyType::u1, 1}};

template <class T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

NpyArray parse_npy(const std::string& bytes, const std::string& where) {
  static constexpr std::string_view kMagic("\x93NUMPY", 6);
  if (bytes.size() < 10 || std::string_view(bytes).substr(0, 6) != kMagic)
    throw InputError(where + ": not a .npy array (no \\x93NUMPY magic)");
  const int major = static_cast<uint8_t>(bytes[6]);
  const Bytes b{bytes, where};
  uint64_t start = 0, len = 0;
  if (major == 1) {
    len = b.u16(8);
    start = 10;
  } else if (major == 2 || major == 3) {
    len = b.u32(8);
    start = 12;
  } else {
    throw InputError(fmt::format("{}: .npy format version {} is not supported (1, 2 or 3)", where, major));
  }
  const std::string_view header = b.slice(start, len);
  auto d = HeaderParser(header, where).dict();
  for (const char* k : {"descr", "fortran_order", "shape"})
    if (!d.count(k)) throw InputError(fmt::format("{}: .npy header has no '{}'", where, k));

  NpyArray a;
  a.where = where;
  const HeaderValue& descr = d["descr"];
  if (descr.kind != HeaderValue::text)
    throw InputError(fmt::format("{}: structured dtype {} is not supported: save each field as its own array", where, descr.s));
  const DtypeName* dt = nullptr;
  for (const auto& x : kDtypes)
    if (descr.s == x.descr) dt = &x;
  if (!dt) {
    if (descr.s.find('O') != std::string::npos)
      throw InputError(where + ": holds pickled Python objects (dtype object); mlsys never unpickles: save a numeric array instead");
    if (!descr.s.empty() && descr.s[0] == '>')
      throw InputError(fmt::format("{}: big-endian dtype '{}': save it as little-endian (array.astype('<{}'))", where, descr.s, descr.s.substr(1)));
    throw InputError(fmt::format("{}: dtype '{}' is not supported (accepted: <f4 <f8 <i4 <i8 |b1 |u1)", where, descr.s));
  }
  a.type = dt->type;
  if (d["fortran_order"].kind != HeaderValue::boolean) throw InputError(where + ": .npy header 'fortran_order' is not True or False");
  if (d["fortran_order"].b)
    throw InputError(where + ": stored in Fortran (column-major) order: save numpy.ascontiguousarray(a) instead");
  if (d["shape"].kind != HeaderValue::tuple) throw InputError(where + ": .npy header 'shape' is not a tuple");
  a.shape = d["shape"].ints;

  uint64_t count = 1;
  for (int64_t s : a.shape) {
    if (s != 0 && count > (uint64_t{1} << 58) / static_cast<uint64_t>(s))
      throw InputError(fmt::format("{}: shape too large", where));
    count *= static_cast<uint64_t>(s);
  }
  const uint64_t need = count * static_cast<uint64_t>(dt->bytes);
  const uint64_t have = bytes.size() - (start + len);
  if (have != need)
    throw InputError(fmt::format("{}: holds {} data bytes but its shape and dtype {} need {} (truncated or damaged)", where, have,
                                 descr.s, need));
  a.bytes = bytes.substr(start + len);
  return a;
}

int64_t NpyArray::size() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

double NpyArray::value(int64_t i) const {
  const char* p = bytes.data();
  switch (type) {
    case NpyType::f4: return load<float>(p + 4 * i);
    case NpyType::f8: return load<double>(p + 8 * i);
    case NpyType::i4: return load<int32_t>(p + 4 * i);
    case NpyType::i8: return static_cast<double>(load<int64_t>(p + 8 * i));
    case NpyType::b1: return p[i] != 0 ? 1.0 : 0.0;
    case NpyType::u1: return static_cast<uint8_t>(p[i]);
  }
  return 0;
}

std::vector<double> NpyArray::doubles() const {
  std::vector<double> v(static_cast<size_t>(size()));
  for (int64_t i = 0; i < size(); ++i) v[i] = value(i);
  return v;
}

std::vector<int64_t> NpyArray::ints() const {
  const int64_t n = size();
  std::vector<int64_t> v(static_cast<size_t>(n));
  if (type == NpyType::i8) {
    for (int64_t i = 0; i < n; ++i) v[i] = load<int64_t>(bytes.data() + 8 * i);
    return v;
  }
  const bool floating = type == NpyType::f4 || type == NpyType::f8;
  for (int64_t i = 0; i < n; ++i) {
    const double x = value(i);
    if (floating && (!(std::abs(x) < 9.2e18) || x != std::floor(x)))
      throw InputError(fmt::format("{}: element {} is {}, expected an integer", where, i, x));
    v[i] = static_cast<int64_t>(x);
  }
  return v;
}

NpzArchive NpzArchive::open(const std::filesystem::path& file) {
  std::string bytes;
  try {
    bytes = read_file(file);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  return from_bytes(std::move(bytes), file.string());
}

NpzArchive NpzArchive::from_bytes(std::string bytes, std::string name) {
  NpzArchive z;
  z.name_ = std::move(name);
  z.bytes_ = std::move(bytes);
  const Bytes b{z.bytes_, z.name_};
  const uint64_t size = z.bytes_.size();
  // The end-of-directory record sits in the last 22 bytes plus an optional comment (< 64 KiB).
  int64_t eocd = -1;
  for (int64_t at = static_cast<int64_t>(size) - 22; at >= 0 && at >= static_cast<int64_t>(size) - 22 - 65535; --at)
    if (b.u32(static_cast<uint64_t>(at)) == kEndOfDirectory) {
      eocd = at;
      break;
    }
  if (eocd < 0) throw InputError(z.name_ + ": not a .npz (ZIP) archive: no end-of-directory record");
  uint64_t count = b.u16(eocd + 10), dir_size = b.u32(eocd + 12), dir_at = b.u32(eocd + 16);
  if (count == 0xffff || dir_size == kZip32Max || dir_at == kZip32Max) {
    if (eocd < 20 || b.u32(eocd - 20) != kZip64Locator)
      throw InputError(z.name_ + ": ZIP64 archive without its ZIP64 locator (damaged)");
    const uint64_t end64 = b.u64(eocd - 20 + 8);
    if (b.u32(end64) != kZip64End) throw InputError(z.name_ + ": damaged ZIP64 end-of-directory record");
    count = b.u64(end64 + 32);
    dir_size = b.u64(end64 + 40);
    dir_at = b.u64(end64 + 48);
  }
  if (dir_at > size || size - dir_at < dir_size) throw InputError(z.name_ + ": the ZIP directory lies outside the file (truncated?)");
  uint64_t at = dir_at;
  for (uint64_t i = 0; i < count; ++i) {
    if (b.u32(at) != kDirectoryEntry) throw InputError(fmt::format("{}: damaged ZIP directory (entry {})", z.name_, i));
    const uint16_t flags = b.u16(at + 8);
    Entry e;
    e.method = b.u16(at + 10);
    e.crc = b.u32(at + 16);
    e.packed = b.u32(at + 20);
    e.size = b.u32(at + 24);
    const uint16_t name_len = b.u16(at + 28), extra_len = b.u16(at + 30), comment_len = b.u16(at + 32);
    e.local_offset = b.u32(at + 42);
    std::string member(b.slice(at + 46, name_len));
    // ZIP64 sizes and offset, in this order, for the fields that hold 0xffffffff.
    const std::string_view extra = b.slice(at + 46 + name_len, extra_len);
    for (size_t x = 0; x + 4 <= extra.size();) {
      const Bytes xb{extra, z.name_};
      const uint16_t id = xb.u16(x), len = xb.u16(x + 2);
      if (id == 1) {
        uint64_t p = x + 4;
        const uint64_t end = x + 4 + len;
        for (uint64_t* f : {&e.size, &e.packed, &e.local_offset})
          if (*f == kZip32Max) {
            if (p + 8 > end) throw InputError(fmt::format("{}: damaged ZIP64 field of member {}", z.name_, member));
            *f = xb.u64(p);
            p += 8;
          }
      }
      x += 4 + static_cast<size_t>(len);
    }
    if (flags & 1) throw InputError(fmt::format("{}: member {} is encrypted", z.name_, member));
    std::string key = member.size() > 4 && member.ends_with(".npy") ? member.substr(0, member.size() - 4) : member;
    if (z.entries_.count(key)) throw InputError(fmt::format("{}: two members are named {}", z.name_, member));
    z.entries_[key] = e;
    at += 46 + static_cast<uint64_t>(name_len) + extra_len + comment_len;
  }
  return z;
}

std::vector<std::string> NpzArchive::keys() const {
  std::vector<std::string> k;
  for (const auto& [key, e] : entries_) k.push_back(key);
  return k;
}

std::string NpzArchive::inflate(const std::string& key, const Entry& e) const {
  const std::string where = name_ + ": " + key;
  const Bytes b{bytes_, name_};
  if (b.u32(e.local_offset) != kLocalHeader) throw InputError(where + ": damaged ZIP member (no local header)");
  const uint64_t data_at = e.local_offset + 30 + b.u16(e.local_offset + 26) + b.u16(e.local_offset + 28);
  const std::string_view packed = b.slice(data_at, e.packed);
  std::string out;
  if (e.method == 0) {
    if (e.packed != e.size) throw InputError(where + ": damaged ZIP member (stored sizes differ)");
    out.assign(packed);
  } else if (e.method == 8) {
    if (e.size > e.packed * kMaxDeflateRatio + 64)
      throw InputError(fmt::format("{}: damaged ZIP member ({} packed bytes cannot inflate to the {} it claims)", where, e.packed, e.size));
    out.assign(e.size, '\0');
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw Error(where + ": zlib could not start inflating");
    uint64_t in_left = packed.size(), out_left = out.size();
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    int rc = Z_OK;
    constexpr uint64_t kChunk = uint64_t{1} << 30;  // zlib counts in 32-bit units
    while (rc == Z_OK) {
      const uInt in = static_cast<uInt>(std::min(in_left, kChunk)), room = static_cast<uInt>(std::min(out_left, kChunk));
      zs.avail_in = in;
      zs.avail_out = room;
      rc = ::inflate(&zs, Z_NO_FLUSH);
      in_left -= in - zs.avail_in;
      out_left -= room - zs.avail_out;
      if (rc == Z_OK && in == zs.avail_in && room == zs.avail_out) rc = Z_BUF_ERROR;  // no progress
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || out_left != 0)
      throw InputError(fmt::format("{}: damaged deflate data ({})", where, rc == Z_STREAM_END ? "shorter than recorded" : "corrupt or longer than recorded"));
  } else {
    throw InputError(fmt::format("{}: ZIP compression method {} is not supported (stored or deflate; numpy.savez / savez_compressed write those)",
                                 where, e.method));
  }
  if (crc32_z(0, reinterpret_cast<const Bytef*>(out.data()), out.size()) != e.crc)
    throw InputError(where + ": CRC mismatch (damaged archive)");
  return out;
}

NpyArray NpzArchive::array(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) throw InputError(fmt::format("{}: no array named '{}'", name_, key));
  return parse_npy(inflate(key, it->second), name_ + ": " + key);
}

}  // namespace mlsys::gnn
